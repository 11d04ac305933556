import { decideUsage } from '../../domain/usage/decider';
import type { UsageState } from '../../domain/usage/state';
import { type SentUsage, type UsageCalendar, usageCalendar, usageCalendarKey, type UsageOutcome, type UsageSubscription, usageSubscriptionOf } from '../../domain/usage/rules';
import type { EventStore } from '../../infra/event-store/port';
import type { CommandDeps } from '../deps';
import type { Lookups } from '../lookups';
import { type Caller, eventMetadata, type OrganisationRef } from '../metadata';
import { latestPosition } from '../positions';
import { resetGenerationOf } from '../organisation/reset-generation';
import { subscriptionCommand } from '../subscription/subscription-command';
import { type UsageIdClaim, type UsageIdClaims, usageIdClaimsOf } from './usage-id-claims';
import { decideOnUsageStream, heldUsageEventIds } from './usage-states';

/** One event of a request, with the subscription it names. */
export type UsageRequestEvent = SentUsage & Readonly<{ subscription: string }>;

export type RecordedBatch = Readonly<{ outcomes: UsageOutcome[]; position: bigint }>;

/** Calendars kept per subscription; the least recently used is dropped past this. */
const KEPT_CALENDARS = 1000;
const calendars = new Map<string, Readonly<{ key: string; calendar: UsageCalendar }>>();

/**
 * The subscription's usage calendar, kept between batches while the facts it is computed from stay
 * the same (a batch's dates are mostly the last batch's, and computing one is Intl and period maths).
 */
const calendarOf = (subscription: UsageSubscription, billedThrough: string | null): UsageCalendar => {
  const key = usageCalendarKey(subscription, billedThrough);
  const kept = calendars.get(subscription.subscriptionId);
  calendars.delete(subscription.subscriptionId);
  const calendar = kept?.key === key ? kept.calendar : usageCalendar(subscription, billedThrough);
  calendars.set(subscription.subscriptionId, { key, calendar });
  if (calendars.size > KEPT_CALENDARS) calendars.delete(calendars.keys().next().value!);
  return calendar;
};

/** The request's events grouped by the subscription they name, in the order each subscription first appears. */
const bySubscription = (events: readonly UsageRequestEvent[]): Map<string, number[]> => {
  const groups = new Map<string, number[]>();
  events.forEach((event, index) => {
    const group = groups.get(event.subscription);
    if (group) group.push(index);
    else groups.set(event.subscription, [index]);
  });
  return groups;
};

/**
 * The subscription each event's id is stored on, where that is another subscription than the event
 * names, as the candidates' usage streams confirm (the lookup's fingerprints may name one that does
 * not hold the id). On the subscription it names, the decision reads its own stream.
 */
const storedElsewhere = async (store: EventStore, events: readonly UsageRequestEvent[], candidates: ReadonlyMap<string, readonly string[]>): Promise<Map<string, string>> => {
  const toConfirm = new Map<string, Set<string>>();
  for (const { eventId, subscription } of events) {
    for (const holder of candidates.get(eventId) ?? []) {
      if (holder === subscription) continue;
      const ids = toConfirm.get(holder);
      if (ids) ids.add(eventId);
      else toConfirm.set(holder, new Set([eventId]));
    }
  }
  const stored = new Map<string, string>();
  for (const [holder, ids] of toConfirm) for (const eventId of await heldUsageEventIds(store, holder, [...ids])) stored.set(eventId, holder);
  return stored;
};

/**
 * `POST /v1/usage_events`: for each subscription named, load its facts and its usage stream, decide
 * every event, and append the accepted ones in one append with the expected revision (a concurrent
 * request conflicts and is decided again). Every append has committed when this returns. The usage
 * state is kept folded between requests (`UsageStates`), so a batch reads only what is new.
 *
 * An event id is unique per organisation: within a subscription the stream decides exactly; across
 * subscriptions, ids stored earlier come from the `Lookups` port (confirmed from the streams it
 * names), and ids this process is storing or has stored since the lookup last followed the log
 * from its `UsageIdClaims`.
 */
export const recordUsage = async (
  deps: CommandDeps & Readonly<{ lookups: Lookups }>,
  caller: Caller,
  organisation: OrganisationRef,
  events: readonly UsageRequestEvent[],
): Promise<RecordedBatch> => {
  const claims = usageIdClaimsOf(deps.store);
  const { candidates, through } = await deps.lookups.usageEventSubscriptions(organisation.id, [...new Set(events.map((e) => e.eventId))]);
  const done = claims.settle(through);
  try {
    return await decideEach(deps, caller, organisation, events, claims, await storedElsewhere(deps.store, events, candidates));
  } finally {
    done();
  }
};

/** Decides and appends each subscription's events in turn; `stored` holds the ids the lookup found on other subscriptions. */
const decideEach = async (
  deps: CommandDeps,
  caller: Caller,
  organisation: OrganisationRef,
  events: readonly UsageRequestEvent[],
  claims: UsageIdClaims,
  stored: ReadonlyMap<string, string>,
): Promise<RecordedBatch> => {
  const now = deps.clocks.forOrganisation(organisation.id).now().toISOString();
  const holder = (eventId: string) => stored.get(eventId) ?? claims.holder(organisation.id, eventId);
  const outcomes: UsageOutcome[] = new Array<UsageOutcome>(events.length);
  const metadata = eventMetadata(caller, organisation, deps.clocks);
  let position = 0n;
  const owner = { organisationId: organisation.id, resetGeneration: await resetGenerationOf(deps.store, organisation) };
  for (const [subscriptionId, indexes] of bySubscription(events)) {
    const sent = indexes.map((i) => events[i]!);
    const subscription = usageSubscriptionOf((await subscriptionCommand.load(deps.store, subscriptionId)).state, owner);
    let claim: UsageIdClaim | null = null;
    const decide = (state: UsageState) => {
      // A conflict decides again: the previous decision's ids are not stored.
      if (claim) claims.release(claim);
      const storedElsewhere = new Set(sent.filter((e) => (holder(e.eventId) ?? subscriptionId) !== subscriptionId).map((e) => e.eventId));
      const calendar = subscription === null ? undefined : calendarOf(subscription, state.billedThrough);
      const decision = decideUsage({ type: 'RecordUsage', organisationId: organisation.id, subscriptionId, subscription, now, events: sent, storedElsewhere, calendar }, state);
      claim = claims.claim(organisation.id, subscriptionId, sent.filter((_, k) => decision.outcomes[k]!.status === 'created').map((e) => e.eventId));
      return { events: decision.events, result: decision.outcomes };
    };
    const handled = await decideOnUsageStream(deps.store, subscriptionId, decide, metadata).catch((error: unknown) => {
      if (claim) claims.release(claim);
      throw error;
    });
    if (claim) claims.committed(claim, handled.position);
    handled.result.forEach((outcome, k) => (outcomes[indexes[k]!] = outcome));
    position = latestPosition(position, handled.position);
  }
  return { outcomes, position };
};
