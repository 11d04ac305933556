import type { Router } from 'express';
import type { ApiDeps } from '../../deps';
import { CUSTOMER_READ, getObject, listObjects, SUBSCRIPTION_READ } from '../../object-reads';
import { page } from '../page';
import { organisationOf } from './organisation';

/** A customer and its subscriptions. */
export const customerPages = (router: Router, deps: ApiDeps): void => {
  page(router, '/organisations/:org/customers/:id', async (req) => {
    const organisation = await organisationOf(deps, req);
    const customer = await getObject<{ id: string; name: string | null }>(deps, CUSTOMER_READ, organisation.id, req.params.id as string);
    const subscriptions = await listObjects(deps, SUBSCRIPTION_READ, organisation.id, { limit: 100, customer: customer.id });
    return { view: 'customer', title: `Customer ${customer.name ?? customer.id}`, organisation, data: { customer, subscriptions: subscriptions.data } };
  });
};
