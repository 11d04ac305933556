import type { ChargeDefinition } from '../charge/events';
import type { PlanDefinition } from '../catalogue/types';
import { planHasUnits } from '../catalogue/types';
import type { OpenOrganisation } from '../organisation/state';
import {
  inSetupMode,
  requireAccountingConnected,
  requireAccountsMapped,
  requireContactCreationAllowed,
  requireWithinPlanLimit,
} from '../organisation/rules';
import { dateIn, type Interval, periodContaining, periodStart } from '../pricing/calendar';
import { parsePercent } from '../pricing/percent';
import { DomainError } from '../shared/domain-error';
import { withinCreationLimits } from './creation-limits';
import type { SubscriptionCreatedData } from './events';

/** The customer a request names: found (with its status), or not yet imported. */
export type NamedCustomer =
  | Readonly<{ status: 'none'; id: string; code: string; createRequested: boolean }>
  | Readonly<{ status: 'active' | 'inactive'; id: string; code: string | null }>;

/** A create-subscription request with everything it names looked up by the handler. */
export type CreateSubscription = Readonly<{
  type: 'CreateSubscription';
  subscriptionId: string;
  /** Derived from the subscription's id; used unless Setup Mode raises no invoice. */
  firstInvoiceId: string;
  now: string;
  organisation: OpenOrganisation;
  /** Read from read models, so eventually consistent: a burst may see a count one behind. */
  counts: Readonly<{ liveSubscriptions: number; metersDefined: boolean }>;
  planCode: string;
  /** null: no plan with that code. */
  plan: PlanDefinition | null;
  /** Each requested charge as found by its id (null: no such charge). */
  charges: readonly Readonly<{ chargeId: string; charge: ChargeDefinition | null; quantity: number; price: string | null; applyDiscount: boolean }>[];
  customer: NamedCustomer;
  request: Readonly<{
    units: number | null;
    discountPercent: string;
    invoiceReference: string | null;
    startDate: string | null;
    flatFeePrice: string | null;
    minimumUnits: number | null;
    meters: readonly { meterCode: string; minimumUnits: number }[];
    endAfterCycles: number | null;
    label: string | null;
    cpiEnabled: boolean;
  }>;
}>;

const invalid = (param: string, message: string) => new DomainError('invalid', 'invalid_parameter', message, param);

const SELLABLE = ['active', 'draft'];

/**
 * Which read-model counts the organisation rules will read for this organisation, so the handler
 * asks for no count a rule would ignore (each is a query on the hot path). A count not needed is
 * passed as 0 / false.
 */
export const countsNeeded = (organisation: OpenOrganisation): Readonly<{ liveSubscriptions: boolean; metersDefined: boolean }> => ({
  liveSubscriptions: organisation.livemode && organisation.planLimits.subscriptions !== null,
  metersDefined: !inSetupMode(organisation) && organisation.accounting !== null && organisation.accounting.usageRevenueAccount === null,
});

const notFound = (code: string, message: string, param: string) => new DomainError('not_found', code, message, param);

/**
 * Checks every rule of a new subscription, in the API document's order (organisation, plan, charges,
 * customer, then each field), and states the facts of its creation.
 */
export const decideCreation = (command: CreateSubscription): SubscriptionCreatedData => {
  const { request, organisation } = command;
  const setupMode = inSetupMode(organisation);
  if (!setupMode) {
    if (organisation.livemode) requireAccountingConnected(organisation);
    requireAccountsMapped(organisation, command.counts.metersDefined);
  }
  requireWithinPlanLimit(organisation, 'subscriptions', command.counts.liveSubscriptions);

  const plan = command.plan;
  if (!plan) throw notFound('plan_not_found', `No plan with code ${command.planCode}.`, 'plan_code');
  const charges = command.charges.map(({ chargeId, charge, ...wanted }, i) => {
    if (!charge || charge.organisationId !== organisation.organisationId) {
      throw notFound('charge_not_found', `No charge with id ${chargeId}.`, `charges.${i}.charge`);
    }
    return { charge, ...wanted };
  });
  const customer = command.customer;
  if (customer.status === 'none') {
    if (!customer.createRequested) throw notFound('customer_not_found', `No customer with code ${customer.code}.`, 'customer_code');
    requireContactCreationAllowed(organisation);
  }

  if (!SELLABLE.includes(plan.status)) throw invalid('plan_code', `Plan ${plan.code} is ${plan.status}; only active and draft plans can be sold.`);
  if (customer.status === 'inactive') throw invalid('customer_code', 'The customer is inactive.');

  const hasUnits = planHasUnits(plan.type);
  if (!hasUnits && request.units !== null) throw invalid('units', `A ${plan.type} plan takes no units.`);
  if (hasUnits && request.units === null) throw invalid('units', 'units is required on this plan.');
  // 0 (like leaving it out) means the plan's minimum applies.
  if (request.minimumUnits !== null && request.minimumUnits > 0) {
    if (!hasUnits) throw invalid('minimum_units', `A ${plan.type} plan takes no units.`);
    if (request.minimumUnits < plan.minimumUnits) {
      throw invalid('minimum_units', `minimum_units may raise the plan's minimum of ${plan.minimumUnits}, never lower it.`);
    }
  }
  const units = request.units ?? 0;
  const minimum = Math.max(plan.minimumUnits, request.minimumUnits ?? 0);
  if (hasUnits && units < minimum) throw invalid('units', `units must be at least ${minimum}.`);

  if (request.flatFeePrice !== null && !plan.allowsPriceOverride) {
    throw invalid('flat_fee_price', 'This plan does not allow a price override.');
  }
  if (parsePercent(request.discountPercent) === null) throw invalid('discount_percent', 'discount_percent is 0.00 to 100.00.');

  request.meters.forEach((override, i) => {
    const meter = plan.meters.find((m) => m.meterCode === override.meterCode);
    if (!meter) throw invalid(`meters.${i}.meter_code`, `The plan does not bill meter ${override.meterCode}.`);
    if (override.minimumUnits < meter.minimumUnits) {
      throw invalid(`meters.${i}.minimum_units`, `A meter minimum may be raised from ${meter.minimumUnits}, never lowered.`);
    }
  });
  charges.forEach(({ charge, price }, i) => {
    if (!SELLABLE.includes(charge.status)) throw invalid(`charges.${i}.charge`, `Charge ${charge.code} is ${charge.status}.`);
    if (charge.currency !== plan.currency) {
      throw invalid(`charges.${i}.charge`, `Charge ${charge.code} is in ${charge.currency}; the plan is in ${plan.currency}.`);
    }
    if (price !== null && !charge.allowsPriceOverride) throw invalid(`charges.${i}.price`, `Charge ${charge.code} does not allow a price override.`);
  });

  const timezone = organisation.settings.timezone;
  const today = dateIn(command.now, timezone);
  const startDate = request.startDate ?? today;
  if (setupMode && startDate > today) {
    throw invalid('start_date', 'In Setup Mode the start date cannot be in the future: use the previous renewal date.');
  }
  const interval: Interval = plan.interval;
  const current = periodContaining(startDate, interval, startDate > today ? startDate : today);
  return withinCreationLimits(request.meters, {
    subscriptionId: command.subscriptionId,
    organisationId: organisation.organisationId,
    ...(organisation.resetGeneration > 0 ? { resetGeneration: organisation.resetGeneration } : {}),
    customerId: command.customer.id,
    customerCode: command.customer.code,
    planId: plan.planId,
    currency: plan.currency,
    interval,
    timezone,
    status: startDate > today ? 'pending' : 'active',
    startDate,
    currentPeriodStart: current.start,
    renewalDate: current.end,
    endDate: request.endAfterCycles === null ? null : periodStart(startDate, interval, request.endAfterCycles),
    units,
    minimumUnits: request.minimumUnits ?? 0,
    discountPercent: request.discountPercent,
    invoiceReference: request.invoiceReference,
    label: request.label,
    endAfterCycles: request.endAfterCycles,
    cpiEnabled: request.cpiEnabled,
    pricing: { planType: plan.type, price: request.flatFeePrice ?? plan.price, freeUnits: plan.freeUnits, tiers: plan.tiers },
    meters: plan.meters.map((meter) => ({
      meterId: meter.meterId,
      meterCode: meter.meterCode,
      name: meter.name,
      model: meter.pricingModel,
      price: meter.price,
      includedUnits: meter.includedUnits,
      tiers: meter.tiers,
      minimumUnits: Math.max(meter.minimumUnits, request.meters.find((m) => m.meterCode === meter.meterCode)?.minimumUnits ?? 0),
      planMinimumUnits: meter.minimumUnits,
    })),
    planName: plan.name,
    firstInvoiceId: setupMode ? null : command.firstInvoiceId,
    firstInvoiceCharges: charges.map(({ charge, quantity, price, applyDiscount }) => ({
      chargeId: charge.chargeId,
      name: charge.name,
      description: charge.description,
      price: price ?? charge.price,
      quantity,
      applyDiscount,
    })),
  });
};
