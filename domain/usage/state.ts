import type { Quantity } from '../pricing/quantity';
import type { UsagePeriodBilledData } from './events';

/** What one meter reported in one period so far: the exact total and the number of events. */
export type PeriodTotal = { quantity: Quantity; events: number };

/** An event that may hold a usage event id: the subscription whose usage stream holds it, and its revision there. */
export type UsageIdHolder = Readonly<{ subscriptionId: string; revision: number }>;

/**
 * The event ids a subscription's usage stream stored, with their details, from the events after
 * `knownThrough` only: those up to it the caller finds another way (the organisation's id index
 * names the event holding each, which is read to compare). De-duplication lasts as long as the
 * subscription, so keeping every id would grow with its lifetime.
 */
export type StoredIds = {
  /** Id → details, in the order stored. */
  seen: Map<string, string>;
  /** Per event of `seen`, oldest first: its revision and how many ids it added (what forgetting removes). */
  events: { revision: number; ids: number }[];
  /** Events folded: the revision of the next one. */
  folded: number;
  /** The last revision whose ids are not kept (-1: every id is). */
  knownThrough: number;
};

/**
 * A subscription's usage: the ids it stored since the caller last looked elsewhere, the totals per
 * period and meter, and what is billed. The totals are the stream's own, not the `usage_periods`
 * read model's: a period is billed at the revision its totals were read at, so no event can land
 * between reading and billing.
 *
 * `evolve` extends the maps in place: a state belongs to the one fold that built it, and copying a
 * batch's ids for every event would make loading quadratic. Fold from `initialState()`.
 */
export type UsageState = Readonly<{
  ids: StoredIds;
  /** Period start → meter id → total. */
  totals: Map<string, Map<string, PeriodTotal>>;
  /** Period start → what billing it recorded. */
  billed: Map<string, UsagePeriodBilledData>;
  /** End (exclusive) of the last usage period billed; null before any. */
  billedThrough: string | null;
}>;

/**
 * Drops the ids of the events up to `revision` (in place), and keeps none of those folded later:
 * the caller knows where they are. A revision at or before the one already forgotten changes nothing.
 */
export const forgetIdsThrough = (ids: StoredIds, revision: number): void => {
  if (revision <= ids.knownThrough) return;
  ids.knownThrough = revision;
  let dropped = 0;
  let forget = 0;
  while (dropped < ids.events.length && ids.events[dropped]!.revision <= revision) forget += ids.events[dropped++]!.ids;
  if (dropped === 0) return;
  ids.events.splice(0, dropped);
  if (ids.events.length === 0) {
    ids.seen.clear();
    return;
  }
  // The map iterates in insertion order, which is the events' order.
  for (const id of ids.seen.keys()) {
    if (forget-- === 0) break;
    ids.seen.delete(id);
  }
};
