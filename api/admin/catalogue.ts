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
    {
      ...base,
      method: 'post',
      path: '/admin/v1/organisations/{org}/meters',
      operationId: 'createMeter',
      summary: 'Define a meter',
      description: `
        Defines something a plan can bill by usage (API calls, gigabytes…), reported by its \`code\` in
        \`POST /v1/usage_events\`. Once an organisation has a meter, its usage revenue account must be
        mapped before any subscription is created.

        **Errors:** \`409 meter_exists\`: a meter has that code; \`422 invalid_parameter\` names an invalid field.
      `,
      body: createMeterBody,
      examples: [{ summary: 'API calls', value: { code: 'api_calls', name: 'API calls', unit_labels: { singular: 'call', plural: 'calls' } } }],
      status: 201,
      response: meterObject,
    },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const { meterId, position } = await defineMeter(deps, adminCaller(req), organisation, toMeterInput(body));
      return { body: publicView(await readAfterWrite(deps, position, () => findOwned<MeterDoc>(deps, METERS, organisation.id, meterId, 'meter_not_found'))) };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'post',
      path: '/admin/v1/organisations/{org}/plans',
      operationId: 'createPlan',
      summary: 'Create a plan',
      description: `
        Creates a plan subscriptions can be sold on. \`type\` sets how units are priced: \`flat_fee\` (no
        units), \`per_unit\`, \`tiered\` (each band bills its own units), \`volume\` (the band holding the
        total prices every unit), \`stairstep\` (the band holding the total sets one price), or
        \`no_base_fee\` (meters only). \`tiers\` are inclusive bands of \`from_units\`..\`to_units\`
        (\`null\`: no end). \`meters\` bill usage in arrears, each by a pricing model of its own. A new
        plan is \`draft\` unless \`status\` says otherwise; \`active\` and \`draft\` plans can be sold.

        **Errors:** \`409 plan_exists\`: a plan has that code; \`422 invalid_parameter\` names a field that breaks
        a rule (bands that overlap or leave a gap, a price on a plan priced by its tiers, a meter code with no meter…).
      `,
      body: createPlanBody,
      examples: [
        { summary: 'Per seat, monthly', value: { code: 'team', name: 'Team', type: 'per_unit', interval: { unit: 'month' }, currency: 'GBP', price: '12.0000', minimum_units: 1, unit_labels: { singular: 'seat', plural: 'seats' }, status: 'active' } },
        {
          summary: 'Tiered seats with metered API calls',
          value: {
            code: 'growth',
            name: 'Growth',
            type: 'tiered',
            interval: { unit: 'month' },
            currency: 'GBP',
            tiers: [
              { from_units: 1, to_units: 10, price: '10.0000' },
              { from_units: 11, to_units: null, price: '8.0000' },
            ],
            meters: [{ meter_code: 'api_calls', pricing_model: 'per_unit', price: '0.0020', included_units: 1000 }],
            status: 'active',
          },
        },
      ],
      status: 201,
      response: planObject,
    },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const { planId, position } = await createPlan(deps, adminCaller(req), organisation, toPlanInput(body));
      return { body: publicView(await readAfterWrite(deps, position, () => findOwned<PlanDoc>(deps, PLANS, organisation.id, planId, 'plan_not_found'))) };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'patch',
      path: '/admin/v1/organisations/{org}/plans/{id}',
      operationId: 'updatePlan',
      summary: 'Change a plan’s status or name',
      description: `
        Renames a plan or moves it between \`draft\`, \`active\`, \`inactive\` and \`legacy\`. Only \`draft\`
        and \`active\` plans can be sold; existing subscriptions keep their plan whatever its status.

        **Errors:** \`404 plan_not_found\`; \`422 invalid_parameter\` names an invalid field.
      `,
      body: updatePlanBody,
      examples: [
        { summary: 'Stop selling it', value: { status: 'legacy' } },
        { summary: 'Rename it', value: { name: 'Team (2026)' } },
      ],
      status: 200,
      response: planObject,
    },
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
    {
      ...base,
      method: 'post',
      path: '/admin/v1/organisations/{org}/charges',
      operationId: 'createCharge',
      summary: 'Create a one-off charge',
      description: `
        Creates a one-off fee (onboarding, set-up…) that a new subscription can add to its first invoice;
        \`allows_price_override\` lets the subscription request set its own price.

        **Errors:** \`409 charge_exists\`: a charge has that code; \`422 invalid_parameter\` names an invalid field.
      `,
      body: createChargeBody,
      examples: [
        { summary: 'An onboarding session', value: { code: 'onboarding', name: 'Onboarding', description: 'One-off onboarding session', currency: 'GBP', price: '150.0000', allows_price_override: true, status: 'active' } },
      ],
      status: 201,
      response: chargeObject,
    },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const { chargeId, position } = await createCharge(deps, adminCaller(req), organisation, toChargeInput(body));
      return { body: publicView(await readAfterWrite(deps, position, () => findOwned<ChargeDoc>(deps, CHARGES, organisation.id, chargeId, 'charge_not_found'))) };
    },
  );
};
