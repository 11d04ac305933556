import { startOfDate } from '../../../domain/pricing/calendar';
import { formatMoney, type Money, parseMoney } from '../../../domain/pricing/money';
import { activeChangeOf, MOVEMENT_KINDS, type MovementKind, monthlyMovements } from '../../../domain/reports/mrr-movement';
import type { Month } from '../../../domain/reports/months';
import type { MrrMonth } from '../../../domain/reports/report-rows';
import { evolveRecurringFacts, mrrTimeline, type RecurringEvent, type RecurringFacts, recurringFactsOf } from '../../../domain/reports/subscription-mrr';
import type { EventMetadata } from '../../../infra/event-store/port';
import type { Doc } from '../../../infra/read-store/port';
import type { ProjectionContext } from '../../engine/projection';
import { addMember, timezoneOf } from './report-organisations';
import type { Fields } from './report-fields';
import { addToMonth, type MonthDoc } from './report-months';

/** Per subscription: the facts its MRR follows and the movements it put in its months (to take out again when they change). */
export const MRR_SUBSCRIPTIONS = 'mrr_subscriptions';
/** Per organisation, currency and month: every subscription's movements summed, and the change in how many have MRR. */
export const MRR_MONTHS = 'mrr_months';

type StoredMovement = Readonly<{ month: Month; kind: MovementKind; amount: string }>;

export type MrrSubscriptionDoc = Doc & {
  _organisation: string;
  currency: string;
  /** When its first renewal line bills from (the end of the period its first invoice billed): what a credit note of an earlier day reverses. */
  first_renewal: string;
  /** The organisation's timezone its movements are in: the one in force when they were last settled. */
  organisation_timezone: string;
  facts: RecurringFacts;
  movements: StoredMovement[];
};

/** Takes a subscription's old movements out of their months and puts its new ones in, a month's document written once. */
const moveMonths = async (context: ProjectionContext, doc: Pick<MrrSubscriptionDoc, '_organisation' | 'currency'>, before: readonly StoredMovement[], after: readonly StoredMovement[], recorded: string) => {
  const months = new Map<Month, { amounts: Record<MovementKind, Money>; active: number }>();
  for (const [movements, sign] of [[before, -1], [after, 1]] as const) {
    for (const { month, kind, amount } of movements) {
      const held = months.get(month) ?? { amounts: { new: 0n, expansion: 0n, contraction: 0n, churn: 0n, reactivation: 0n }, active: 0 };
      held.amounts[kind] += BigInt(sign) * parseMoney(amount);
      held.active += sign * activeChangeOf(kind);
      months.set(month, held);
    }
  }
  for (const [month, { amounts, active }] of months) {
    const change: Fields = { active_change: active };
    for (const kind of MOVEMENT_KINDS) change[kind] = formatMoney(amounts[kind]);
    await addToMonth(context, MRR_MONTHS, { organisationId: doc._organisation, currency: doc.currency, month }, change, recorded);
  }
};

const movementsOf = (facts: RecurringFacts, timezone: string): StoredMovement[] =>
  monthlyMovements(mrrTimeline(facts), timezone).map(({ month, kind, amount }) => ({ month, kind, amount: formatMoney(amount) }));

/** The subscription with these facts, its movements those of the organisation's timezone, its months following (the change recorded at `recorded`). */
const settle = async (context: ProjectionContext, doc: MrrSubscriptionDoc, facts: RecurringFacts, timezone: string, recorded: string): Promise<void> => {
  const movements = movementsOf(facts, timezone);
  await moveMonths(context, doc, doc.movements, movements, recorded);
  context.put(MRR_SUBSCRIPTIONS, { ...doc, organisation_timezone: timezone, facts, movements } satisfies MrrSubscriptionDoc);
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
      movements: [],
    };
    await settle(context, doc, doc.facts, doc.organisation_timezone, recordedTime);
    await addMember(context, data.organisationId, data.subscriptionId);
    return;
  }
  const doc = await context.get<MrrSubscriptionDoc>(MRR_SUBSCRIPTIONS, event.data.subscriptionId);
  if (doc) await settle(context, doc, evolveRecurringFacts(doc.facts, event, businessTime), doc.organisation_timezone, recordedTime);
};

/** After the organisation's timezone changed: the subscription's movements in the new months. */
export const retimeSubscription = async (context: ProjectionContext, doc: MrrSubscriptionDoc, timezone: string, recorded: string): Promise<void> =>
  settle(context, doc, doc.facts, timezone, recorded);

/** A month's document as the report rows take it. */
export const toMrrMonth = (doc: MonthDoc): MrrMonth => ({
  month: doc.month,
  currency: doc.currency,
  movements: Object.fromEntries(MOVEMENT_KINDS.map((kind) => [kind, parseMoney((doc[kind] as string | undefined) ?? '0')])) as MrrMonth['movements'],
  activeChange: (doc.active_change as number | undefined) ?? 0,
});
