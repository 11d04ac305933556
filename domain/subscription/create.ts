import type { ChargeDefinition } from '../charge/events';
import type { PlanDefinition } from '../catalogue/types';
import { planHasUnits } from '../catalogue/types';
import { dateIn, type Interval, periodContaining, periodStart } from '../pricing/calendar';
import { parsePercent } from '../pricing/percent';
import { DomainError } from '../shared/domain-error';
import { withinCreationLimits } from './creation-limits';
import type { SubscriptionCreatedData } from './events';

/** A create-subscription request with everything it names already looked up. */
export type CreateSubscription = Readonly<{
  type: 'CreateSubscription';
  subscriptionId: string;
  /** Derived from the subscription's id; null in Setup Mode, where no invoice is raised. */
  firstInvoiceId: string | null;
  now: string;
  organisation: Readonly<{ id: string; timezone: string; setupMode: boolean }>;
  customer: Readonly<{ id: string; code: string | null; status: 'active' | 'inactive' }>;
  plan: PlanDefinition;
  charges: readonly Readonly<{ charge: ChargeDefinition; quantity: number; price: string | null; applyDiscount: boolean }>[];
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

/** Checks every rule of a new subscription and states the facts of its creation. */
export const decideCreation = (command: CreateSubscription): SubscriptionCreatedData => {
  const { plan, request, organisation } = command;
  if (!SELLABLE.includes(plan.status)) throw invalid('plan_code', `Plan ${plan.code} is ${plan.status}; only active and draft plans can be sold.`);
  if (command.customer.status !== 'active') throw invalid('customer_code', 'The customer is inactive.');

  const hasUnits = planHasUnits(plan.type);
  if (!hasUnits && request.units !== null) throw invalid('units', `A ${plan.type} plan takes no units.`);
  if (hasUnits && request.units === null) throw invalid('units', 'units is required on this plan.');
  if (request.minimumUnits !== null) {
    if (!hasUnits && request.minimumUnits > 0) throw invalid('minimum_units', `A ${plan.type} plan takes no units.`);
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
  command.charges.forEach(({ charge, price }, i) => {
    if (!SELLABLE.includes(charge.status)) throw invalid(`charges.${i}.charge`, `Charge ${charge.code} is ${charge.status}.`);
    if (charge.currency !== plan.currency) {
      throw invalid(`charges.${i}.charge`, `Charge ${charge.code} is in ${charge.currency}; the plan is in ${plan.currency}.`);
    }
    if (price !== null && !charge.allowsPriceOverride) throw invalid(`charges.${i}.price`, `Charge ${charge.code} does not allow a price override.`);
  });

  const today = dateIn(command.now, organisation.timezone);
  const startDate = request.startDate ?? today;
  if (organisation.setupMode && startDate > today) {
    throw invalid('start_date', 'In Setup Mode the start date cannot be in the future: use the previous renewal date.');
  }
  const interval: Interval = plan.interval;
  const current = periodContaining(startDate, interval, startDate > today ? startDate : today);
  return withinCreationLimits(request.meters, {
    subscriptionId: command.subscriptionId,
    organisationId: organisation.id,
    customerId: command.customer.id,
    customerCode: command.customer.code,
    planId: plan.planId,
    currency: plan.currency,
    interval,
    timezone: organisation.timezone,
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
    firstInvoiceId: command.firstInvoiceId,
    firstInvoiceCharges: command.charges.map(({ charge, quantity, price, applyDiscount }) => ({
      chargeId: charge.chargeId,
      name: charge.name,
      description: charge.description,
      price: price ?? charge.price,
      quantity,
      applyDiscount,
    })),
  });
};
