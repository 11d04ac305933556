import type { Router } from 'express';
import { z } from 'zod';
import { importCustomer } from '../../commands/customer/import-customer';
import { CUSTOMER_STATUSES, CUSTOMERS, type CustomerDoc } from '../../projections/read-models/customers';
import type { ApiDeps } from '../deps';
import { findOwned } from '../find-owned';
import { csvEnum, listOf, listPage, listQuery, publicView } from '../paging';
import { readAfterWrite } from '../read-after-write';
import type { RouteRegistry } from '../route';
import { createCustomerBody, customerObject, toCustomerInput } from '../schemas/customer';
import { apiCaller } from './api-caller';
import { publicRoute } from './public-route';

const customersQuery = listQuery({
  code: z.string().min(1).optional(),
  email: z.string().min(1).optional().describe('Case-insensitive'),
  status: csvEnum(CUSTOMER_STATUSES).optional(),
});

export const customerRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const base = { tag: 'Customers', auth: 'api_key' } as const;

  publicRoute(
    router,
    registry,
    deps,
    { ...base, method: 'get', path: '/v1/customers', operationId: 'listCustomers', summary: 'List imported customers, newest first', scope: 'customers:read', query: customersQuery, status: 200, response: listOf(customerObject) },
    async ({ req, query }) => ({ body: await listPage(deps.readStore, CUSTOMERS, req.auth!.organisation.id, query, ['email']) }),
  );

  publicRoute(
    router,
    registry,
    deps,
    { ...base, method: 'get', path: '/v1/customers/{id}', operationId: 'getCustomer', summary: 'Retrieve a customer', scope: 'customers:read', status: 200, response: customerObject },
    async ({ req, params }) => ({
      body: publicView(await findOwned<CustomerDoc>(deps, CUSTOMERS, req.auth!.organisation.id, params.id!, 'customer_not_found')),
    }),
  );

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
