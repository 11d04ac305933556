import type { Router } from 'express';
import { organisationObject } from '../schemas/organisation';
import type { ApiDeps } from '../deps';
import type { RouteRegistry } from '../route';
import { publicRoute } from './public-route';

/** The API document's Organisation: the operator's object without the operator-only fields. */
export const publicOrganisationObject = organisationObject
  .pick({
    id: true,
    object: true,
    name: true,
    timezone: true,
    default_currency: true,
    setup_mode: true,
    can_create_accounting_contacts: true,
    livemode: true,
  })
  .meta({ id: 'PublicOrganisation' });

export const organisationRoute = (router: Router, registry: RouteRegistry, deps: ApiDeps): void =>
  publicRoute(
    router,
    registry,
    deps,
    {
      method: 'get',
      path: '/v1/organisation',
      operationId: 'getOrganisation',
      summary: 'Retrieve your organisation',
      description: `
        The organisation the API key belongs to; any valid key may call it, whatever its scopes. Dates a
        client sends are read in its \`timezone\`. \`livemode\` is \`false\` in a sandbox; \`setup_mode\`
        says whether invoices are raised yet; \`can_create_accounting_contacts\` whether
        \`POST /v1/customers\` and \`create_customer\` may create contacts in the accounting system.
      `,
      tag: 'Organisation',
      auth: 'api_key',
      scope: null,
      status: 200,
      response: publicOrganisationObject,
    },
    ({ req }) => {
      const organisation = req.auth!.organisation;
      return Promise.resolve({ body: publicOrganisationObject.strip().parse(organisation) });
    },
  );
