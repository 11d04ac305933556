import { decideUsage } from '../../domain/usage/decider';
import type { UsageState } from '../../domain/usage/state';
import { RecentlyUsed } from '../../infra/recently-used';
import { type SentUsage, type UsageCalendar, usageCalendar, usageCalendarKey, type UsageOutcome, type UsageSubscription, usageSubscriptionOf } from '../../domain/usage/rules';
import type { CommandDeps } from '../plumbing/deps';
import type { Lookups } from '../plumbing/lookups';
import { type Caller, eventMetadata, type OrganisationRef } from '../plumbing/metadata';
import { latestPosition } from '../plumbing/positions';
import { resetGenerationOf } from '../plumbing/reset-generation';
import { subscriptionCommand } from '../plumbing/subscription-command';
import { type UsageIdClaim, usageIdClaimsOf } from './usage-id-claims';
import { confirmHolders, type StoredUsageId } from './usage-id-holders';
import { decideOnUsageStream, type UsageStateSource } from '../plumbing/usage-states';

/** One event of a request, with the subscription it names. */
export type UsageRequestEvent = SentUsage & Readonly<{ subscription: string }>;

export type RecordedBatch = Readonly<{ outcomes: UsageOutcome[]; position: bigint }>;

/** Calendars kept per subscription; the least recently used is dropped past this. */
const KEPT_CALENDARS = 1000;
const calendars = new RecentlyUsed<string, Readonly<{ key: string; calendar: UsageCalendar }>>(KEPT_CALENDARS);

/**
 * The subscription's usage calendar, kept between batches while the facts it is computed from stay
 * the same (a batch's dates are mostly the last batch's, and computing one is Intl and period maths).
 */
const calendarOf = (subscription: UsageSubscription, billedThrough: string | null): UsageCalendar => {
  const key = usageCalendarKey(subscription, billedThrough);
  const kept = calendars.get(subscription.subscriptionId);
  const calendar = kept?.key === key ? kept.calendar : usageCalendar(subscription, billedThrough);
  calendars.set(subscription.subscriptionId, { key, calendar });
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
 * `POST /v1/usage_events`: for each subscription named, load its facts and its usage stream, decide
 * every event, and append the accepted ones in one append with the expected revision (a concurrent
 * request conflicts and is decided again). Every append has committed when this returns. The usage
 * state is kept folded between requests (`UsageStates`), so a batch reads only what is new.
 *
 * An event id is unique per organisation. Ids stored earlier come from the `Lookups` port, which
 * names the event holding each (read to confirm it and compare the details); ids stored since the
 * lookup last followed the log, on this subscription from its kept state, on others from this
 * process's `UsageIdClaims`.
 */
export const recordUsage = async (
  deps: CommandDeps & Readonly<{ lookups: Lookups }>,
  caller: Caller,
  organisation: OrganisationRef,
  events: readonly UsageRequestEvent[],
): Promise<RecordedBatch> => {
  const claims = usageIdClaimsOf(deps.store);
  const now = deps.clocks.forOrganisation(organisation.id).now().toISOString();
  const outcomes: UsageOutcome[] = new Array<UsageOutcome>(events.length);
  const owner = { organisationId: organisation.id, resetGeneration: await resetGenerationOf(deps.store, organisation) };
  const metadata = eventMetadata(caller, { ...organisation, resetGeneration: owner.resetGeneration }, deps.clocks);
  let position = 0n;
  for (const [subscriptionId, indexes] of bySubscription(events)) {
    const sent = indexes.map((i) => events[i]!);
    const subscription = usageSubscriptionOf((await subscriptionCommand.load(deps.store, subscriptionId)).state, owner);
    let storedHere = new Map<string, string>();
    let storedElsewhere = new Map<string, string>();
    let done: (() => void) | undefined;
    // Alone on the stream: the lookup's answer is at least as recent as the one the kept state last forgot ids by.
    const prepare = async (source: UsageStateSource) => {
      const answer = await deps.lookups.usageEventHolders(organisation.id, subscriptionId, [...new Set(sent.map((e) => e.eventId))]);
      done = claims.settle(answer.through);
      ({ storedHere, storedElsewhere } = splitHolders(subscriptionId, await confirmHolders(deps.store, answer.holders)));
      source.forgetIdsThrough(answer.readThrough);
    };
    const holder = (eventId: string) => storedElsewhere.get(eventId) ?? claims.holder(organisation.id, eventId);
    let claim: UsageIdClaim | null = null;
    const decide = (state: UsageState) => {
      // A conflict decides again: the previous decision's ids are not stored.
      if (claim) claims.release(claim);
      const elsewhere = new Set(sent.filter((e) => (holder(e.eventId) ?? subscriptionId) !== subscriptionId).map((e) => e.eventId));
      const calendar = subscription === null ? undefined : calendarOf(subscription, state.billedThrough);
      const decision = decideUsage(
        { type: 'RecordUsage', organisationId: organisation.id, subscriptionId, subscription, now, events: sent, storedElsewhere: elsewhere, storedHere, calendar },
        state,
      );
      claim = claims.claim(organisation.id, subscriptionId, sent.filter((_, k) => decision.outcomes[k]!.status === 'created').map((e) => e.eventId));
      return { events: decision.events, result: decision.outcomes };
    };
    try {
      const handled = await decideOnUsageStream(deps.store, subscriptionId, decide, metadata, prepare).catch((error: unknown) => {
        if (claim) claims.release(claim);
        throw error;
      });
      if (claim) claims.committed(claim, handled.position);
      handled.result.forEach((outcome, k) => (outcomes[indexes[k]!] = outcome));
      position = latestPosition(position, handled.position);
    } finally {
      done?.();
    }
  }
  return { outcomes, position };
};

/** The confirmed ids' details where stored on this subscription, and the subscription holding each stored on another. */
const splitHolders = (subscriptionId: string, confirmed: ReadonlyMap<string, readonly StoredUsageId[]>) => {
  const storedHere = new Map<string, string>();
  const storedElsewhere = new Map<string, string>();
  for (const [eventId, stored] of confirmed) {
    const here = stored.find((s) => s.subscriptionId === subscriptionId);
    if (here) storedHere.set(eventId, here.details);
    else storedElsewhere.set(eventId, stored[0]!.subscriptionId);
  }
  return { storedHere, storedElsewhere };
};
