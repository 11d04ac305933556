import { addDays, compareDates, daysBetween, type Interval, periodContaining } from '../../domain/pricing/calendar';
import { divideRounded, type Money } from '../../domain/pricing/money';
import { planAmount, type PlanPricing } from '../../domain/pricing/pricing';

/**
 * What a subscription's documents should bill, kept beside a random sequence of lifecycle commands:
 * each period at the units it renewed with, plus its prorated changes for their days (the running
 * numerator rounded once a period; an end credits none of it), plus the next period at the current
 * units while its renewal invoice is out; less the prorated charges still waiting for a renewal invoice.
 */

export type Plan = Readonly<{ code: string; pricing: PlanPricing; minimum: number; interval: Interval }>;

/** A billing period the subscription entered, with its units at the start and its prorated changes' running numerator. */
type Billed = { start: string; end: string; units: number; numerator: bigint };

export type Model = {
  id: string;
  plan: Plan;
  /** The start date periods are anchored on. */
  anchor: string;
  leadDays: number;
  today: string;
  status: 'active' | 'ended' | 'complete';
  cancelAtPeriodEnd: boolean;
  /** The current total, and the units the current period is billed at (a change without proration takes effect at renewal). */
  units: number;
  periodUnits: number;
  periods: Billed[];
  /** The renewal invoice for the next period: not yet raised, raised, or removed by an end (a restore raises it again). */
  renewalInvoice: 'none' | 'raised' | 'removed';
  /** Prorated charges waiting for a renewal invoice (`charge_on_renewal` before it is out). */
  waiting: Money;
  /** An end removed invoices at the client's request: what they billed of the current period is gone, so the money check no longer applies. */
  removalsAsked: boolean;
};

export const newModel = (fields: Readonly<{ id: string; plan: Plan; units: number; start: string; renewal: string; leadDays: number }>): Model => ({
  id: fields.id,
  plan: fields.plan,
  anchor: fields.start,
  leadDays: fields.leadDays,
  today: fields.start,
  status: 'active',
  cancelAtPeriodEnd: false,
  units: fields.units,
  periodUnits: fields.units,
  periods: [{ start: fields.start, end: fields.renewal, units: fields.units, numerator: 0n }],
  renewalInvoice: 'none',
  waiting: 0n,
  removalsAsked: false,
});

export const currentPeriod = (model: Model): Readonly<Billed> => model.periods.at(-1)!;

const price = (model: Model, units: number): Money => planAmount(model.plan.pricing, units);

/** What the subscription's documents should bill, less what they credit. */
export const expectedTotal = (model: Model): Money => {
  const periods = model.periods.reduce((total, p) => total + price(model, p.units) + divideRounded(p.numerator, BigInt(daysBetween(p.start, p.end))), 0n);
  return periods - model.waiting + (model.renewalInvoice === 'raised' ? price(model, model.units) : 0n);
};

/**
 * A unit change accepted: a prorated one adds its difference for the days left to the period's
 * numerator; a charge on renewal waits for a renewal invoice not yet out (once it is, the change
 * amends it or bills separately at once).
 */
export const unitsChanged = (model: Model, change: Readonly<{ units: number; effectiveDate: string | null; onRenewal: boolean }>): void => {
  if (change.effectiveDate !== null) {
    const period = model.periods.at(-1)!;
    const days = BigInt(daysBetween(period.start, period.end));
    const before = divideRounded(period.numerator, days);
    period.numerator += (price(model, change.units) - price(model, model.periodUnits)) * BigInt(daysBetween(change.effectiveDate, period.end));
    const charge = divideRounded(period.numerator, days) - before;
    if (charge > 0n && change.onRenewal && model.renewalInvoice !== 'raised') model.waiting += charge;
    model.periodUnits = change.units;
  }
  model.units = change.units;
};

/** An end accepted: the renewal invoice removed, the charges waiting for it billed at once (ending does not credit the current period). */
export const ended = (model: Model, when: 'now' | 'period_end'): void => {
  if (model.renewalInvoice === 'raised') model.renewalInvoice = 'removed';
  model.waiting = 0n;
  if (when === 'now') model.status = 'ended';
  model.cancelAtPeriodEnd = when === 'period_end';
};

/** A restore accepted: a renewal invoice the end removed raised again, afresh, with the charges waiting since. */
export const restored = (model: Model): void => {
  model.status = 'active';
  model.cancelAtPeriodEnd = false;
  if (model.renewalInvoice !== 'removed') return;
  model.renewalInvoice = 'raised';
  model.waiting = 0n;
};

/** The schedule's steps due up to `date`, in order: the renewal invoice, the renewal, the completion at period end. */
export const timePasses = (model: Model, date: string): void => {
  model.today = date;
  while (model.status === 'active') {
    const period = currentPeriod(model);
    const ends = model.cancelAtPeriodEnd;
    if (!ends && model.renewalInvoice === 'none' && compareDates(addDays(period.end, -model.leadDays), date) <= 0) {
      model.renewalInvoice = 'raised';
      model.waiting = 0n;
      continue;
    }
    if (compareDates(period.end, date) > 0) return;
    if (ends) {
      model.status = 'complete';
      model.cancelAtPeriodEnd = false;
      return;
    }
    model.periods.push({ start: period.end, end: periodContaining(model.anchor, model.plan.interval, period.end).end, units: model.units, numerator: 0n });
    model.periodUnits = model.units;
    model.renewalInvoice = 'none';
  }
};
