import type { Router } from 'express';
import { z } from 'zod';
import type { ApiDeps } from '../deps';
import type { RouteRegistry } from '../route';
import { publicRoute } from './public-route';

export const publicOrganisationObject = z
  .object({
    id: z.string(),
    object: z.literal('organisation'),
    name: z.string(),
    timezone: z.string(),
    default_currency: z.string().nullable(),
    setup_mode: z.boolean(),
    can_create_accounting_contacts: z.boolean(),
    livemode: z.boolean(),
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
      summary: 'The organisation the API key belongs to',
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
