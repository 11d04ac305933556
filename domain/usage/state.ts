import type { Quantity } from '../pricing/quantity';
import type { UsagePeriodBilledData } from './events';

/** What one meter reported in one period so far: the exact total and the number of events. */
export type PeriodTotal = { quantity: Quantity; events: number };

/**
 * A subscription's usage: the details of every event id it ever stored (de-duplication lasts as long
 * as the subscription, not a time window), the totals per period and meter, and what is billed.
 * The totals are the stream's own, not the `usage_periods` read model's: a period is billed at the
 * revision its totals were read at, so no event can land between reading and billing.
 *
 * `evolve` extends the maps in place: a state belongs to the one fold that built it, and copying a
 * lifetime of ids for every event would make loading quadratic. Fold from `initialState()`.
 */
export type UsageState = Readonly<{
  seen: Map<string, string>;
  /** Period start → meter id → total. */
  totals: Map<string, Map<string, PeriodTotal>>;
  /** Period start → what billing it recorded. */
  billed: Map<string, UsagePeriodBilledData>;
  /** End (exclusive) of the last usage period billed; null before any. */
  billedThrough: string | null;
}>;
