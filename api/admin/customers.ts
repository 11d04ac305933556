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
    { ...base, method: 'post', path: '/admin/v1/organisations/{org}/customers', operationId: 'importCustomer', summary: 'Import a customer (creates the accounting contact if none has that number)', body: createCustomerBody, status: 201 },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const { customerId, position } = await importCustomer(deps, adminCaller(req), organisation, toCustomerInput(body), { requester: 'operator' });
      return { body: publicView(await readAfterWrite(deps, position, () => read(organisation.id, customerId))) };
    },
  );

  route(
    router,
    registry,
    { ...base, method: 'patch', path: '/admin/v1/organisations/{org}/customers/{id}', operationId: 'updateCustomer', summary: 'Change a customer’s status, name or email', body: updateCustomerBody, status: 200 },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      await read(organisation.id, params.id!);
      const { position } = await updateCustomer(deps, adminCaller(req), organisation, params.id!, body);
      return { body: publicView(await readAfterWrite(deps, position, () => read(organisation.id, params.id!))) };
    },
  );
};
