import type { Router } from 'express';
import { createCharge } from '../../commands/catalogue/create-charge';
import { createPlan } from '../../commands/catalogue/create-plan';
import { defineMeter } from '../../commands/catalogue/define-meter';
import { updatePlan } from '../../commands/catalogue/update-plan';
import { CHARGES, type ChargeDoc } from '../../projections/read-models/charges';
import { METERS, type MeterDoc } from '../../projections/read-models/meters';
import { PLANS, type PlanDoc } from '../../projections/read-models/plans';
import type { ApiDeps } from '../deps';
import { publicView } from '../paging';
import { readAfterWrite } from '../read-after-write';
import { type RouteRegistry, route } from '../route';
import {
  chargeObject,
  createChargeBody,
  createMeterBody,
  createPlanBody,
  meterObject,
  planObject,
  toChargeInput,
  toMeterInput,
  toPlanInput,
  updatePlanBody,
} from '../schemas/catalogue';
import { adminCaller } from './admin-caller';
import { findOrganisation } from './organisations';
import { findOwned } from '../find-owned';

export const catalogueRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const base = { tag: 'Catalogue', auth: 'admin', errors: [409] } as const;

  route(
    router,
    registry,
    { ...base, method: 'post', path: '/admin/v1/organisations/{org}/meters', operationId: 'createMeter', summary: 'Define a meter', body: createMeterBody, status: 201, response: meterObject },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const { meterId, position } = await defineMeter(deps, adminCaller(req), organisation, toMeterInput(body));
      return { body: publicView(await readAfterWrite(deps, position, () => findOwned<MeterDoc>(deps, METERS, organisation.id, meterId, 'meter_not_found'))) };
    },
  );

  route(
    router,
    registry,
    { ...base, method: 'post', path: '/admin/v1/organisations/{org}/plans', operationId: 'createPlan', summary: 'Create a plan', body: createPlanBody, status: 201, response: planObject },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const { planId, position } = await createPlan(deps, adminCaller(req), organisation, toPlanInput(body));
      return { body: publicView(await readAfterWrite(deps, position, () => findOwned<PlanDoc>(deps, PLANS, organisation.id, planId, 'plan_not_found'))) };
    },
  );

  route(
    router,
    registry,
    { ...base, method: 'patch', path: '/admin/v1/organisations/{org}/plans/{id}', operationId: 'updatePlan', summary: 'Change a plan’s status or name', body: updatePlanBody, status: 200, response: planObject },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      await findOwned<PlanDoc>(deps, PLANS, organisation.id, params.id!, 'plan_not_found');
      const { position } = await updatePlan(deps, adminCaller(req), organisation, params.id!, body);
      return { body: publicView(await readAfterWrite(deps, position, () => findOwned<PlanDoc>(deps, PLANS, organisation.id, params.id!, 'plan_not_found'))) };
    },
  );

  route(
    router,
    registry,
    { ...base, method: 'post', path: '/admin/v1/organisations/{org}/charges', operationId: 'createCharge', summary: 'Create a one-off charge', body: createChargeBody, status: 201, response: chargeObject },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const { chargeId, position } = await createCharge(deps, adminCaller(req), organisation, toChargeInput(body));
      return { body: publicView(await readAfterWrite(deps, position, () => findOwned<ChargeDoc>(deps, CHARGES, organisation.id, chargeId, 'charge_not_found'))) };
    },
  );
};
