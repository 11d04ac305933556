import { compareDates } from '../pricing/calendar';
import type { Decider } from '../shared/decider';
import { type Quantity, quantityOf } from '../pricing/quantity';
import { type BillUsagePeriod, decideUsageBill } from './billing';
import { type RecordedUsage, sentTimestamp, type UsageEvent, type UsageRecordedData, usageRecordedData } from './events';
import { periodLimits, type PeriodLimits, surelyWithinLimits } from './period-limits';
import type { PeriodTotal, StoredIds, UsageState } from './state';
import { checkNewUsage, rejected, type SentUsage, sentDetails, storedDetails, type UsageOutcome, type UsageCalendar, type UsageSubscription, usageCalendar, usageDetails } from './rules';

export type RecordUsage = Readonly<{
  type: 'RecordUsage';
  organisationId: string;
  subscriptionId: string;
  /** The subscription's facts; null when none exists or it is another organisation's. */
  subscription: UsageSubscription | null;
  /** The organisation's clock: the timestamp of an event sent without one. */
  now: string;
  events: readonly SentUsage[];
  /** Ids of these events the organisation already stored on another subscription (an eventually consistent lookup). */
  storedElsewhere: ReadonlySet<string>;
  /** The details of those of these events stored on this subscription at or before the state's `ids.knownThrough`, read from the events holding them. */
  storedHere: ReadonlyMap<string, string>;
  /** The subscription's calendar kept from earlier batches; made here when absent. Its key must be the subscription's and the state's `billedThrough`. */
  calendar?: UsageCalendar;
}>;

export type UsageCommand = RecordUsage | BillUsagePeriod;

export type UsageDecision = Readonly<{ outcomes: UsageOutcome[]; events: UsageEvent[] }>;

const CREATED: UsageOutcome = { status: 'created' };
const DUPLICATE: UsageOutcome = { status: 'duplicate' };

/**
 * One outcome per event, in order, and the one event storing the accepted ones. An id already
 * stored (or accepted earlier in the request) is a duplicate when its details are the same and a
 * conflict when not; a rejected event is not stored, so a corrected resend is judged afresh. An event
 * that would take its period past the usage limits is `invalid_quantity` (`period-limits.ts`).
 */
export const decideUsage = (command: RecordUsage, state: UsageState): UsageDecision => {
  const { outcomes, events, accepted } = decideEvents(command, state, null);
  const prices = command.subscription?.prices;
  if (!prices || surelyWithinLimits(prices, state.totals, accepted.values())) return { outcomes, events };
  const exact = decideEvents(command, state, periodLimits(prices, state.totals));
  return { outcomes: exact.outcomes, events: exact.events };
};

const decideEvents = (command: RecordUsage, state: UsageState, limits: PeriodLimits | null): UsageDecision & Readonly<{ accepted: Map<string, RecordedUsage> }> => {
  const accepted = new Map<string, RecordedUsage>();
  const calendar = command.subscription && (command.calendar ?? usageCalendar(command.subscription, state.billedThrough));
  const outcomes = command.events.map((event): UsageOutcome => {
    const stored = accepted.get(event.eventId);
    const known = state.ids.seen.get(event.eventId) ?? command.storedHere.get(event.eventId) ?? (stored ? storedDetails(stored) : undefined);
    if (known !== undefined) return known === sentDetails(event) ? DUPLICATE : rejected('event_id_conflict');
    if (command.storedElsewhere.has(event.eventId)) return rejected('event_id_conflict');
    const checked = checkNewUsage(command.subscription, state.billedThrough, event, command.now, calendar);
    if (typeof checked === 'string') return rejected(checked);
    const refusal = limits?.refusal(checked);
    if (refusal) return rejected('invalid_quantity', refusal);
    accepted.set(event.eventId, checked);
    return CREATED;
  });
  const events: UsageEvent[] =
    accepted.size === 0
      ? []
      : [{ type: 'UsageRecorded', data: usageRecordedData(command.subscriptionId, command.organisationId, command.now, [...accepted.values()]) }];
  return { outcomes, events, accepted };
};

const addToTotal = (state: UsageState, periodStart: string, meterId: string, quantity: Quantity, events: number): void => {
  let meters = state.totals.get(periodStart);
  if (!meters) state.totals.set(periodStart, (meters = new Map<string, PeriodTotal>()));
  const total = meters.get(meterId);
  if (total) {
    total.quantity += quantity;
    total.events += events;
  } else meters.set(meterId, { quantity, events });
};

/** The exact sum of a group's quantities (stored texts; a batch's events mostly repeat the last one's, parsed once). */
export const groupQuantity = (events: readonly Readonly<{ quantity: string }>[]): Quantity => {
  let sum = 0n;
  let lastText: string | undefined;
  let last = 0n;
  for (const { quantity } of events) {
    if (quantity !== lastText) {
      lastText = quantity;
      last = quantityOf(quantity)!;
    }
    sum += last;
  }
  return sum;
};

/**
 * Each stored event's id and details, a group at a time (events of a batch mostly share their
 * details: one string for a run of them, which a kept state then holds for every id of the run).
 */
export const forEachStoredUsage = (data: UsageRecordedData, visit: (eventId: string, details: string) => void): void => {
  for (const group of data.groups) {
    let details = '';
    let quantity: string | undefined;
    let sent: string | undefined;
    for (const usage of group.events) {
      const timestamp = sentTimestamp(usage) ?? '';
      if (usage.quantity !== quantity || timestamp !== sent) details = usageDetails(group.meterCode, (quantity = usage.quantity), (sent = timestamp));
      visit(usage.eventId, details);
    }
  }
};

/** Keeps the ids a batch at `revision` stored, unless the caller finds those elsewhere (`ids.knownThrough`). */
export const keepStoredIds = (ids: StoredIds, revision: number, data: UsageRecordedData): void => {
  if (revision <= ids.knownThrough) return;
  const before = ids.seen.size;
  forEachStoredUsage(data, (eventId, details) => ids.seen.set(eventId, details));
  if (ids.seen.size > before) ids.events.push({ revision, ids: ids.seen.size - before });
};

const evolve = (state: UsageState, event: UsageEvent): UsageState => {
  const revision = state.ids.folded++;
  switch (event.type) {
    case 'UsageRecorded':
      // Read as stored, a group (one meter, one period) at a time: this folds every batch a subscription ever sent.
      for (const group of event.data.groups) addToTotal(state, group.periodStart, group.meterId, groupQuantity(group.events), group.events.length);
      keepStoredIds(state.ids, revision, event.data);
      return state;
    case 'UsagePeriodBilled':
      state.billed.set(event.data.periodStart, event.data);
      return state.billedThrough !== null && compareDates(state.billedThrough, event.data.periodEnd) >= 0 ? state : { ...state, billedThrough: event.data.periodEnd };
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
};

export const usageDecider: Decider<UsageState, UsageCommand, UsageEvent> = {
  initialState: () => ({ ids: { seen: new Map(), events: [], folded: 0, knownThrough: -1 }, totals: new Map(), billed: new Map(), billedThrough: null }),
  evolve,
  decide: (command, state) => {
    switch (command.type) {
      case 'RecordUsage':
        return decideUsage(command, state).events;
      case 'BillUsagePeriod':
        return decideUsageBill(command, state).events;
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
