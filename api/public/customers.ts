import type { Router } from 'express';
import { importCustomer } from '../../commands/customer/import-customer';
import { CUSTOMERS, type CustomerDoc } from '../../projections/customers';
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
      summary: 'Find or create a customer by code (200 when it existed, 201 when adopted or created)',
      scope: 'customers:write',
      idempotencyKey: 'optional',
      body: createCustomerBody,
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
