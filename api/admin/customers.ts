import type { Router } from 'express';
import { importCustomer } from '../../commands/customer/import-customer';
import { updateCustomer } from '../../commands/customer/update-customer';
import { CUSTOMERS, type CustomerDoc } from '../../projections/read-models/customers';
import type { ApiDeps } from '../deps';
import { findOwned } from '../find-owned';
import { publicView } from '../paging';
import { readAfterWrite } from '../read-after-write';
import { type RouteRegistry, route } from '../route';
import { createCustomerBody, customerObject, toCustomerInput, updateCustomerBody } from '../schemas/customer';
import { adminCaller } from './admin-caller';
import { findOrganisation } from './organisations';

export const adminCustomerRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const base = { tag: 'Customers', auth: 'admin', response: customerObject, errors: [403, 409, 502] } as const;
  const read = (organisationId: string, id: string) => findOwned<CustomerDoc>(deps, CUSTOMERS, organisationId, id, 'customer_not_found');

  route(
    router,
    registry,
    {
      ...base,
      method: 'post',
      path: '/admin/v1/organisations/{org}/customers',
      operationId: 'importCustomer',
      summary: 'Import a customer',
      description: `
        Imports a customer by its \`code\`: a contact of the accounting system with that contact number is
        adopted (keeping its own name and email), otherwise one is created from the request. An operator
        may create contacts whatever the organisation's API setting.

        **Errors**
        - \`403 plan_limit_reached\`: one more customer would exceed the organisation's plan.
        - \`409 customer_exists\`: a customer has that code.
        - \`409 accounting_not_connected\`, \`409 accounting_contact_name_taken\`, \`409 accounting_contact_archived\`,
          \`409 customer_not_importable\`, \`409 customer_not_created\`: as for \`POST /v1/customers\`.
        - \`502 accounting_error\`: the accounting system refused or failed.
      `,
      body: createCustomerBody,
      examples: [{ summary: 'A company', value: { code: 'ACME', name: 'Acme Ltd', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.example' } }],
      status: 201,
    },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const { customerId, position } = await importCustomer(deps, adminCaller(req), organisation, toCustomerInput(body), { requester: 'operator' });
      return { body: publicView(await readAfterWrite(deps, position, () => read(organisation.id, customerId))) };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'patch',
      path: '/admin/v1/organisations/{org}/customers/{id}',
      operationId: 'updateCustomer',
      summary: 'Change a customer',
      description: `
        Changes a customer's \`status\` (\`active\`, \`inactive\`: an inactive customer cannot get new
        subscriptions), \`name\` or \`email\`; the fields left out are kept.

        **Errors:** \`404 customer_not_found\`; \`422 invalid_parameter\` names an invalid field.
      `,
      body: updateCustomerBody,
      examples: [
        { summary: 'Deactivate', value: { status: 'inactive' } },
        { summary: 'New billing address', value: { email: 'billing@acme.example' } },
      ],
      status: 200,
    },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      await read(organisation.id, params.id!);
      const { position } = await updateCustomer(deps, adminCaller(req), organisation, params.id!, body);
      return { body: publicView(await readAfterWrite(deps, position, () => read(organisation.id, params.id!))) };
    },
  );
};
