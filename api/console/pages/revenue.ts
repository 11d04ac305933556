import type { Router } from 'express';
import type { ApiDeps } from '../../deps';
import { page } from '../page';
import { organisationOf } from './organisation';

/** The revenue page: the MRR and invoiced revenue reports, once the service serves them (issue 39). */
export const revenuePages = (router: Router, deps: ApiDeps): void => {
  page(router, '/organisations/:org/revenue', async (req) => ({ view: 'revenue', title: 'Revenue', organisation: await organisationOf(deps, req) }));
};
