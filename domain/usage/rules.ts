import { meterPricing } from '../invoice/usage-invoice';
import { ownedNow } from '../organisation/rules';
import type { Interval } from '../pricing/calendar';
import { addDays, compareDates, dateIn, parseInstant, periodContaining } from '../pricing/calendar';
import { quantityText } from '../pricing/quantity';
import type { SubscriptionCreatedData } from '../subscription/events';
import type { LiveStatus, SubscriptionState } from '../subscription/lifecycle';
import { nextPeriod, renewalPricing } from '../subscription/schedule';
import { endsAtRenewal } from './billing';
import type { RecordedUsage } from './events';
import type { MeterPrices, PricedMeter } from './period-limits';

/** The decisions page's rejection codes of a usage event, each with the sentence a person reads. */
export const USAGE_REJECTIONS = {
  subscription_not_found: 'No subscription with that id.',
  meter_not_on_plan: 'The subscription’s plan does not bill that meter.',
  invalid_quantity: 'quantity must be a decimal string or number from 0 to 999999999999.9999 with at most 4 decimal places.',
  invalid_timestamp: 'timestamp must be an ISO 8601 date and time with its offset, such as 2026-03-15T10:00:00Z.',
  timestamp_out_of_period: 'timestamp is before the subscription’s start, after its end date, or in a usage period already billed.',
  subscription_not_billable: 'The subscription has ended or completed and its final usage is billed.',
  event_id_conflict: 'An event with this event_id is already stored with different details.',
} as const;
export type UsageRejection = keyof typeof USAGE_REJECTIONS;

export type UsageOutcome =
  | Readonly<{ status: 'created' }>
  | Readonly<{ status: 'duplicate' }>
  | Readonly<{ status: 'rejected'; code: UsageRejection; message?: string }>;

/** A rejection, with a sentence of its own where the code's would not say what went wrong. */
export const rejected = (code: UsageRejection, message?: string): UsageOutcome => (message === undefined ? { status: 'rejected', code } : { status: 'rejected', code, message });

/** One event as the client sent it; `timestamp` undefined when it sent none. Values are checked here, not at the edge. */
export type SentUsage = Readonly<{ eventId: string; meterCode: string; quantity: unknown; timestamp: unknown }>;

/** What the rules read of a subscription, from its own stream. */
export type UsageSubscription = Readonly<{
  subscriptionId: string;
  organisationId: string;
  status: LiveStatus;
  startDate: string;
  /**
   * The last day whose usage is billed: the end date of a subscription ended now, the day before
   * when it ends on a renewal date (that date starts no period, so usage on it would never be billed);
   * null without an end.
   */
  lastUsageDate: string | null;
  interval: Interval;
  timezone: string;
  /** The current meters, as priced now. */
  meters: readonly PricedMeter[];
  /** The meters as priced in each period, for the usage limits. */
  prices: MeterPrices;
}>;

const pricedMeter = (meter: SubscriptionCreatedData['meters'][number]): PricedMeter => ({ meterId: meter.meterId, meterCode: meter.meterCode, pricing: meterPricing(meter) });

/** The facts the usage rules read of a loaded subscription; null when none exists, it is another organisation's or a sandbox reset removed it. */
export const usageSubscriptionOf = (state: SubscriptionState, organisation: { organisationId: string; resetGeneration: number }): UsageSubscription | null => {
  if (state.status === 'none' || !ownedNow(state.subscription, organisation)) return null;
  const { subscription, life } = state;
  const meters = subscription.meters.map(pricedMeter);
  return {
    subscriptionId: subscription.subscriptionId,
    organisationId: subscription.organisationId,
    status: state.status,
    startDate: subscription.startDate,
    lastUsageDate: life.endDate === null ? null : endsAtRenewal(state) ? addDays(life.endDate, -1) : life.endDate,
    interval: subscription.interval,
    timezone: subscription.timezone,
    meters,
    prices: [
      ...life.metersBefore.map((before) => ({ until: before.until, meters: before.meters.map(pricedMeter) })),
      // A CPI uplift already decided for the next period prices usage dated in it.
      ...(life.nextPrices ? [{ until: nextPeriod(state).start, meters }, { until: null, meters: renewalPricing(state).meters.map(pricedMeter) }] : [{ until: null, meters }]),
    ],
  };
};

/**
 * What makes two sends of one event_id the same event: meter, exact quantity and the timestamp as
 * sent (none sent is its own value, so a retry without one is a duplicate whatever the clock says).
 * The subscription is the stream's, or compared by the batch.
 */
export const sentDetails = (event: SentUsage): string => {
  const quantity = quantityText(event.quantity);
  const instant = typeof event.timestamp === 'string' ? parseInstant(event.timestamp) : null;
  const timestamp = event.timestamp === undefined ? '' : (instant ?? `raw:${JSON.stringify(event.timestamp)}`);
  return usageDetails(event.meterCode, quantity ?? `raw:${JSON.stringify(event.quantity)}`, timestamp);
};

/** The details of an event: its meter code, exact quantity, and the timestamp it was sent with ('' when none). */
export const usageDetails = (meterCode: string, quantity: string, sentTimestamp: string): string => `${meterCode}\u0000${quantity}\u0000${sentTimestamp}`;

export const storedDetails = (event: RecordedUsage): string => usageDetails(event.meterCode, event.quantity, event.timestampSent ? event.timestamp : '');

/**
 * The local date and billing period of a subscription's instants, remembered: a batch's events
 * mostly share a day (and the next batch's too), and the calendar maths is most of a decision's cost. Offsets
 * are whole quarter hours, so instants in one UTC quarter hour share their local date.
 * `outOfPeriod(date)`: the date is before the start, after the last usage day, or in a usage period
 * already billed (through `billedThrough`, the state's).
 */
export type UsageCalendar = Readonly<{
  dateOf(instant: string): string;
  periodOf(date: string): Readonly<{ start: string; end: string }>;
  outOfPeriod(date: string): boolean;
}>;

/** Past this many keys a remembered function forgets what it knew (a calendar kept for a subscription's lifetime stays small). */
const REMEMBERED_KEYS = 4096;

const remembered = <V>(compute: (key: string) => V): ((key: string) => V) => {
  const known = new Map<string, V>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      if (known.size >= REMEMBERED_KEYS) known.clear();
      known.set(key, (value = compute(key)));
    }
    return value;
  };
};

/** What a usage calendar is computed from: two calendars with the same key answer alike. */
export const usageCalendarKey = (subscription: UsageSubscription, billedThrough: string | null): string =>
  [subscription.startDate, subscription.interval.unit, subscription.interval.count, subscription.timezone, subscription.lastUsageDate, billedThrough].join('|');

export const usageCalendar = (subscription: UsageSubscription, billedThrough: string | null = null): UsageCalendar => {
  const quarterHour = (instant: string) => `${instant.slice(0, 14)}${String(Math.floor(Number(instant.slice(14, 16)) / 15))}`;
  // The quarter hour's first instant stands for all of it.
  const dateOfQuarterHour = remembered((key) => dateIn(`${key.slice(0, 14)}${String(Number(key.slice(14)) * 15).padStart(2, '0')}:00.000Z`, subscription.timezone));
  return {
    dateOf: (instant) => dateOfQuarterHour(quarterHour(instant)),
    periodOf: remembered((date) => periodContaining(subscription.startDate, subscription.interval, date)),
    outOfPeriod: remembered((date) => {
      const afterEnd = subscription.lastUsageDate !== null && compareDates(date, subscription.lastUsageDate) > 0;
      const billed = billedThrough !== null && compareDates(date, billedThrough) < 0;
      return compareDates(date, subscription.startDate) < 0 || afterEnd || billed;
    }),
  };
};

/**
 * The rules a new event meets, in this order: the subscription exists (and is the caller's), it is
 * billable, its plan bills the meter, the quantity, the timestamp, and the period it falls in is open.
 * Returns the event to store, or the first rule it breaks.
 */
export const checkNewUsage = (
  subscription: UsageSubscription | null,
  billedThrough: string | null,
  event: SentUsage,
  now: string,
  calendar: UsageCalendar | null = subscription && usageCalendar(subscription, billedThrough),
): RecordedUsage | UsageRejection => {
  if (subscription === null || calendar === null) return 'subscription_not_found';
  const ended = subscription.status === 'ended' || subscription.status === 'complete';
  if (ended && billedThrough !== null && (subscription.lastUsageDate === null || compareDates(billedThrough, subscription.lastUsageDate) >= 0)) {
    return 'subscription_not_billable';
  }
  const meter = subscription.meters.find((m) => m.meterCode === event.meterCode);
  if (!meter) return 'meter_not_on_plan';
  const quantity = quantityText(event.quantity);
  if (quantity === null) return 'invalid_quantity';
  const timestamp = event.timestamp === undefined ? now : typeof event.timestamp === 'string' ? parseInstant(event.timestamp) : null;
  if (timestamp === null) return 'invalid_timestamp';
  const date = calendar.dateOf(timestamp);
  if (calendar.outOfPeriod(date)) return 'timestamp_out_of_period';
  const period = calendar.periodOf(date);
  return {
    eventId: event.eventId,
    meterId: meter.meterId,
    meterCode: meter.meterCode,
    quantity,
    timestamp,
    timestampSent: event.timestamp !== undefined,
    periodStart: period.start,
    periodEnd: period.end,
  };
};
