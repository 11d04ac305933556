import type { PlanType, Tier } from '../catalogue/types';
import { wholePeriodFee } from '../invoice/renewal-invoice';
import { compareDates, type Interval, startOfDate } from '../pricing/calendar';
import type { Money } from '../pricing/money';
import { netOf } from '../pricing/percent';
import type { SubscriptionCreatedData, SubscriptionEvent } from '../subscription/events';
import { monthlyRecurring } from './monthly-recurring';

/** A value in force from a date (the subscription's timezone) on. */
type Step<T> = Readonly<{ from: string; value: T }>;

type Prices = Readonly<{ price: string; tiers: readonly Tier[] }>;

/**
 * What a subscription's MRR at any instant follows from, folded from its events: the recurring
 * price's facts and the dates they hold from. Dates, not the times the scheduler recorded a start,
 * renewal or completion, decide: so the MRR of a month is the same whenever it is asked.
 */
export type RecurringFacts = Readonly<{
  currency: string;
  interval: Interval;
  timezone: string;
  discountPercent: string;
  planType: PlanType;
  freeUnits: number;
  startDate: string;
  /** The end in force: ended, set to end at period end, or `end_after_cycles`; null while none. */
  endDate: string | null;
  /** The units each period is billed at, from each date on, oldest first. */
  units: readonly Step<number>[];
  /** The prices (a CPI uplift's from the period it prices), oldest first. */
  prices: readonly Step<Prices>[];
  /** Spans it stood ended before a restore: [from, to), ISO instants. */
  stops: readonly Readonly<{ from: string; to: string }>[];
}>;

/** The subscription events its MRR follows; a start, renewal or completion falls on dates these already hold. */
export const RECURRING_EVENT_TYPES = [
  'SubscriptionCreated',
  'SubscriptionUnitsChanged',
  'SubscriptionCpiUplifted',
  'SubscriptionEndScheduled',
  'SubscriptionEnded',
  'SubscriptionRestored',
] as const;
export type RecurringEvent = SubscriptionEvent<(typeof RECURRING_EVENT_TYPES)[number]>;

/** `steps` with `value` in force from `from` on: a later step it overrides goes. */
const withStep = <T>(steps: readonly Step<T>[], from: string, value: T): Step<T>[] => [
  ...steps.filter((step) => compareDates(step.from, from) < 0),
  { from, value },
];

export const recurringFactsOf = (created: SubscriptionCreatedData): RecurringFacts => ({
  currency: created.currency,
  interval: created.interval,
  timezone: created.timezone,
  discountPercent: created.discountPercent,
  planType: created.pricing.planType,
  freeUnits: created.pricing.freeUnits,
  startDate: created.startDate,
  endDate: created.endDate,
  units: [{ from: created.startDate, value: created.units }],
  prices: [{ from: created.startDate, value: { price: created.pricing.price, tiers: created.pricing.tiers } }],
  stops: [],
});

/**
 * One event folded in, `businessTime` being when it happened (the organisation's clock). A prorated
 * unit change holds from its effective date; one without proration from the renewal date, as the
 * current period stays billed at its units. A restore of an ended subscription resumes its MRR from
 * the restore on; one set to end at period end simply no longer ends.
 */
export const evolveRecurringFacts = (facts: RecurringFacts, event: Exclude<RecurringEvent, { type: 'SubscriptionCreated' }>, businessTime: string): RecurringFacts => {
  switch (event.type) {
    case 'SubscriptionUnitsChanged': {
      const { data } = event;
      const from = data.proration !== null && data.effectiveDate !== null ? data.effectiveDate : data.renewalDate;
      return { ...facts, units: withStep(facts.units, from, data.units) };
    }
    case 'SubscriptionCpiUplifted': {
      const { periodStart, price, tiers } = event.data;
      return { ...facts, prices: withStep(facts.prices, periodStart, { price, tiers }) };
    }
    case 'SubscriptionEndScheduled':
    case 'SubscriptionEnded':
      return { ...facts, endDate: event.data.endDate };
    case 'SubscriptionRestored': {
      const stopped = event.data.from === 'ended' && facts.endDate !== null ? { from: startOfDate(facts.endDate, facts.timezone), to: businessTime } : null;
      return { ...facts, endDate: null, stops: stopped && Date.parse(stopped.from) < Date.parse(stopped.to) ? [...facts.stops, stopped] : facts.stops };
    }
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
};

/** A subscription's MRR through time: the instants it may change at (epoch ms, ascending), and its value at any instant. */
export type MrrTimeline = Readonly<{ changes: readonly number[]; at(instant: number): Money }>;

const inForce = <T>(steps: readonly Readonly<{ from: number; value: T }>[], instant: number): T => {
  let value = steps[0]!.value;
  for (const step of steps) if (step.from <= instant) value = step.value;
  return value;
};

/**
 * The MRR of a subscription at an instant: what its renewal line would bill for one whole period at
 * the units, prices and discount in force then (`wholePeriodFee`), normalised to a month and
 * rounded once (`monthlyRecurring`). 0 before the start date (pending), from the end date on, and
 * while it stood ended; one set to end at period end keeps its MRR until that date.
 */
export const mrrTimeline = (facts: RecurringFacts): MrrTimeline => {
  const instant = (date: string) => Date.parse(startOfDate(date, facts.timezone));
  const start = instant(facts.startDate);
  const end = facts.endDate === null ? Infinity : instant(facts.endDate);
  const units = facts.units.map((step) => ({ from: instant(step.from), value: step.value }));
  const prices = facts.prices.map((step) => ({ from: instant(step.from), value: step.value }));
  const stops = facts.stops.map((stop) => ({ from: Date.parse(stop.from), to: Date.parse(stop.to) }));
  const mrrAt = (t: number): Money => {
    if (t < start || t >= end || stops.some((stop) => t >= stop.from && t < stop.to)) return 0n;
    const { price, tiers } = inForce(prices, t);
    const { fee, discount } = wholePeriodFee({ type: facts.planType, price, freeUnits: facts.freeUnits, tiers }, inForce(units, t), facts.discountPercent);
    return monthlyRecurring(netOf(fee, discount), facts.interval);
  };
  const changes = [...new Set([start, ...units.map((s) => s.from), ...prices.map((s) => s.from), ...stops.flatMap((s) => [s.from, s.to]), ...(end === Infinity ? [] : [end])])].sort(
    (a, b) => a - b,
  );
  // Nothing it follows moves between two changes (0 before the first, the start or earlier): its value at each, worked out once.
  const values = changes.map(mrrAt);
  const at = (t: number): Money => {
    let value = 0n;
    for (let i = 0; i < changes.length && changes[i]! <= t; i++) value = values[i]!;
    return value;
  };
  return { changes, at };
};
