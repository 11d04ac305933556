import type { Router } from 'express';
import { importCustomer } from '../../commands/customer/import-customer';
import { CUSTOMERS, type CustomerDoc } from '../../projections/read-models/customers';
import type { ApiDeps } from '../deps';
import { findOwned } from '../find-owned';
import { CUSTOMER_READ } from '../object-reads';
import { publicView } from '../paging';
import { readAfterWrite } from '../read-after-write';
import type { RouteRegistry } from '../route';
import { createCustomerBody, customerObject, toCustomerInput } from '../schemas/customer';
import { apiCaller } from './api-caller';
import { publicObjectRoutes } from './object-routes';
import { publicRoute } from './public-route';

export const customerRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const base = { tag: 'Customers', auth: 'api_key' } as const;

  publicObjectRoutes(router, registry, deps, CUSTOMER_READ);

  publicRoute(
    router,
    registry,
    deps,
    {
      ...base,
      method: 'post',
      path: '/v1/customers',
      operationId: 'createCustomer',
      summary: 'Find or create a customer by code',
      description: `
        Makes sure a customer with this \`code\` exists, in three steps, each safe to repeat:

        1. A customer with that code exists: it is returned with \`200\` and nothing is created.
        2. Otherwise a contact of the accounting system whose contact number equals the code is adopted
           as the customer (\`201\`; it keeps the contact's own name and email, not the request's).
        3. Otherwise the contact is created (name, email if sent, the code as its contact number) and
           adopted (\`201\`).

        Creating customers through the API is off until an operator allows it for the organisation.

        **Errors**
        - \`403 accounting_contact_creation_disabled\`: the organisation has not allowed the API to create customers.
        - \`403 plan_limit_reached\`: one more customer would exceed the organisation's plan (never in a sandbox).
        - \`409 accounting_not_connected\`: the organisation is not connected to the accounting system.
        - \`409 accounting_contact_name_taken\`: another contact has that name (param \`name\`); send its code or another name.
        - \`409 accounting_contact_archived\`: the contact with that code is archived.
        - \`409 customer_not_importable\`: the contact with that code belongs to another customer.
        - \`409 customer_not_created\`: a contact with that code appeared meanwhile; try again.
        - \`422 invalid_parameter\`: a field is missing or invalid; \`param\` names it.
        - \`502 accounting_error\`: the accounting system refused or failed; retry with the same \`Idempotency-Key\`.
      `,
      scope: 'customers:write',
      idempotencyKey: 'optional',
      body: createCustomerBody,
      examples: [
        { summary: 'A company with its accounts payable address', value: { code: 'CUST-42', name: 'Globex Ltd', email: 'ap@globex.example' } },
        { summary: 'A person', value: { code: 'CUST-43', name: 'Grace Hopper', first_name: 'Grace', last_name: 'Hopper', email: 'grace@hopper.example' } },
      ],
      status: 201,
      alsoStatus: 200,
      response: customerObject,
      errors: [502],
    },
    async ({ req, body }) => {
      const organisation = req.auth!.organisation;
      const { customerId, created, position } = await importCustomer(deps, apiCaller(req), organisation, toCustomerInput(body), { requester: 'api' });
      const customer = await readAfterWrite(deps, position, () => findOwned<CustomerDoc>(deps, CUSTOMERS, organisation.id, customerId, 'customer_not_found'));
      return { status: created ? 201 : 200, body: publicView(customer) };
    },
  );
};
