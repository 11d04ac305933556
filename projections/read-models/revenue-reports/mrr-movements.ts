import { startOfDate } from '../../../domain/pricing/calendar';
import { type Money, parseMoney } from '../../../domain/pricing/money';
import { activeChangeOf, MOVEMENT_KINDS, type MonthMovement, monthlyMovements } from '../../../domain/reports/mrr-movement';
import type { Month } from '../../../domain/reports/months';
import type { MrrMonth } from '../../../domain/reports/report-rows';
import { evolveRecurringFacts, mrrTimeline, type RecurringEvent, type RecurringFacts, recurringFactsOf } from '../../../domain/reports/subscription-mrr';
import type { EventMetadata } from '../../../infra/event-store/port';
import type { Doc } from '../../../infra/read-store/port';
import type { ProjectionContext } from '../../engine/projection';
import { timezoneOf } from './report-organisations';
import type { Figures } from './report-fields';
import { addToMonth, type MonthDoc } from './report-months';

/** Per subscription: the facts its MRR follows, and the timezone of the months its movements are in. */
export const MRR_SUBSCRIPTIONS = 'mrr_subscriptions';
/** Per organisation, currency and month: every subscription's movements summed, and the change in how many have MRR. */
export const MRR_MONTHS = 'mrr_months';

export type MrrSubscriptionDoc = Doc & {
  _organisation: string;
  currency: string;
  /** When its first renewal line bills from (the end of the period its first invoice billed): what a credit note of an earlier day reverses. */
  first_renewal: string;
  /** The organisation's timezone its movements are in: the one in force when they were last settled. */
  organisation_timezone: string;
  facts: RecurringFacts;
};

/** The movements a subscription puts in its months: told again from its facts when they change, to take them out (not kept: most never change). */
const movementsOf = ({ facts, organisation_timezone }: MrrSubscriptionDoc): MonthMovement[] => monthlyMovements(mrrTimeline(facts), organisation_timezone);

/** Takes a subscription's old movements out of their months and puts its new ones in, a month's document changed once. */
const moveMonths = async (context: ProjectionContext, doc: MrrSubscriptionDoc, before: readonly MonthMovement[], after: readonly MonthMovement[], recorded: string) => {
  const months = new Map<Month, Figures>();
  for (const [movements, sign] of [[before, -1], [after, 1]] as const) {
    for (const { month, kind, amount } of movements) {
      let change = months.get(month);
      if (!change) months.set(month, (change = { active_change: 0 }));
      change[kind] = ((change[kind] as Money | undefined) ?? 0n) + (sign === 1 ? amount : -amount);
      change.active_change = (change.active_change as number) + sign * activeChangeOf(kind);
    }
  }
  for (const [month, change] of months) await addToMonth(context, MRR_MONTHS, { organisationId: doc._organisation, currency: doc.currency, month }, change, recorded);
};

/** The subscription as it now stands, its months following (the change recorded at `recorded`). */
const settle = async (context: ProjectionContext, before: MrrSubscriptionDoc | null, after: MrrSubscriptionDoc, recorded: string): Promise<void> => {
  await moveMonths(context, after, before ? movementsOf(before) : [], movementsOf(after), recorded);
  context.put(MRR_SUBSCRIPTIONS, after);
};

/** A subscription event: its facts move, and with them its movements in the months of the organisation's timezone. */
export const applyRecurring = async (event: RecurringEvent, { businessTime, recordedTime }: Pick<EventMetadata, 'businessTime' | 'recordedTime'>, context: ProjectionContext): Promise<void> => {
  if (event.type === 'SubscriptionCreated') {
    const { data } = event;
    const doc: MrrSubscriptionDoc = {
      id: data.subscriptionId,
      _organisation: data.organisationId,
      currency: data.currency,
      first_renewal: startOfDate(data.renewalDate, data.timezone),
      organisation_timezone: await timezoneOf(context, data.organisationId),
      facts: recurringFactsOf(data),
    };
    return settle(context, null, doc, recordedTime);
  }
  const doc = await context.get<MrrSubscriptionDoc>(MRR_SUBSCRIPTIONS, event.data.subscriptionId);
  if (doc) await settle(context, doc, { ...doc, facts: evolveRecurringFacts(doc.facts, event, businessTime) }, recordedTime);
};

/** After the organisation's timezone changed: the subscription's movements in the new months. */
export const retimeSubscription = async (context: ProjectionContext, doc: MrrSubscriptionDoc, timezone: string, recorded: string): Promise<void> =>
  settle(context, doc, { ...doc, organisation_timezone: timezone }, recorded);

/** A month's document as the report rows take it. */
export const toMrrMonth = (doc: MonthDoc): MrrMonth => ({
  month: doc.month,
  currency: doc.currency,
  movements: Object.fromEntries(MOVEMENT_KINDS.map((kind) => [kind, parseMoney((doc[kind] as string | undefined) ?? '0')])) as MrrMonth['movements'],
  activeChange: (doc.active_change as number | undefined) ?? 0,
});
