import type { Router } from 'express';
import type { ApiDeps } from '../../deps';
import { CHARGE_READ, listObjects, METER_READ, PLAN_READ } from '../../object-reads';
import { page } from '../page';
import { organisationOf } from './organisation';

/** Plans, charges and meters: the newest hundred of each. */
export const cataloguePages = (router: Router, deps: ApiDeps): void => {
  page(router, '/organisations/:org/catalogue', async (req) => {
    const organisation = await organisationOf(deps, req);
    const [plans, charges, meters] = await Promise.all([PLAN_READ, CHARGE_READ, METER_READ].map((read) => listObjects(deps, read, organisation.id, { limit: 100 })));
    return { view: 'catalogue', title: 'Catalogue', organisation, data: { plans: plans!.data, charges: charges!.data, meters: meters!.data } };
  });
};
