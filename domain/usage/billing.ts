import { billsAnything, meterBills } from '../invoice/usage-invoice';
import { addDays, compareDates, type Period, periodContaining } from '../pricing/calendar';
import { formatQuantity } from '../pricing/quantity';
import { DomainError } from '../shared/domain-error';
import type { ExistingSubscription } from '../subscription/lifecycle';
import type { UsageState } from './state';
import type { UsageEvent, UsagePeriodBilledData } from './events';

export type BillUsagePeriod = Readonly<{
  type: 'BillUsagePeriod';
  subscription: ExistingSubscription;
  /** The subscription's meters as priced during the period (a CPI uplift at a later renewal does not reprice it). */
  meters: ExistingSubscription['subscription']['meters'];
  /** The start of the usage period to bill (a billing period's start, anchored on the start date). */
  periodStart: string;
  /** The subscription's date and the instant now, by the organisation's clock. */
  today: string;
  now: string;
  /** The invoice's derived id, used when the period bills anything. */
  invoiceId: string;
  /** False in Setup Mode: the period is billed, but no invoice is raised. */
  raisesInvoices: boolean;
}>;

/**
 * The usage a period bills, [start, end): the billing period that starts on `periodStart`, cut at
 * the day after the end date when the subscription ends inside it (usage on the end date counts).
 * Billable once it is over, or at once when it is the final period of an ended or completed
 * subscription (`invoice_usage_now`). Refusals: not a period start of the subscription, a period
 * starting after its end date (`422 invalid_parameter`, param `period_start`), a period not over
 * (`409 usage_period_open`).
 */
export const usagePeriodToBill = (state: ExistingSubscription, periodStart: string, today: string): Period => {
  const { subscription, life } = state;
  const starts = compareDates(periodStart, subscription.startDate) >= 0;
  const period = starts ? periodContaining(subscription.startDate, subscription.interval, periodStart) : null;
  if (!period || period.start !== periodStart) {
    throw new DomainError('invalid', 'invalid_parameter', `${periodStart} does not start a usage period of subscription ${subscription.subscriptionId}.`, 'period_start');
  }
  const endDate = life.endDate;
  if (endDate !== null && (compareDates(periodStart, endDate) > 0 || (periodStart === endDate && endsAtRenewal(state)))) {
    throw new DomainError('invalid', 'invalid_parameter', `The usage period ${periodStart} starts after the subscription's last day (end date ${endDate}).`, 'period_start');
  }
  const finalPeriod = endDate !== null && compareDates(endDate, period.end) < 0;
  const end = usageEnd(state, period);
  const ended = state.status === 'ended' || state.status === 'complete';
  if (compareDates(today, end) < 0 && !(ended && finalPeriod)) {
    throw new DomainError('conflict', 'usage_period_open', `The usage period ${periodStart} to ${end} is not over yet; it can be billed from ${end}.`);
  }
  return { start: period.start, end };
};

/**
 * Whether the subscription ends on a renewal date (set to end at period end, or completing after its
 * cycles) rather than by ending now: its end date then starts no period of its own, the last period
 * is the one before it. Ended now, the end date is its last day and its usage counts.
 */
export const endsAtRenewal = (state: ExistingSubscription): boolean =>
  state.status !== 'ended' && state.life.endDate !== null && compareDates(state.life.endDate, state.subscription.startDate) > 0;

/**
 * The start of the usage period a subscription's final usage invoice bills: the period holding its
 * end date, or the one before when it ends on a renewal date; null when it bills no meters, has no end
 * date, or ended before it started (no usage could be reported).
 */
export const finalUsagePeriodStart = (state: ExistingSubscription): string | null => {
  const { subscription, life } = state;
  if (subscription.meters.length === 0 || life.endDate === null || compareDates(life.endDate, subscription.startDate) < 0) return null;
  const last = endsAtRenewal(state) ? addDays(life.endDate, -1) : life.endDate;
  return periodContaining(subscription.startDate, subscription.interval, last).start;
};

/** The end (exclusive) of the usage a period bills: its own end, or the day after an end date inside it. */
const usageEnd = (state: ExistingSubscription, period: Period): string => {
  const endDate = state.life.endDate;
  return endDate !== null && compareDates(endDate, period.end) < 0 ? addDays(endDate, 1) : period.end;
};

/**
 * The usage periods due to be billed on `today`, oldest first, for the scheduler: each not yet billed
 * whose usage ended `graceDays` or more days ago (due = usage end + grace days), from the first
 * subscription period (or the one before the latest billed, which ending with `invoice_usage_now`
 * may have skipped) up to the final period; at most `limit`. A subscription without meters has none.
 * The final period of one ended now is not due before its grace either: `invoice_usage_now` bills it at once.
 */
export const dueUsagePeriods = (
  state: ExistingSubscription,
  billed: ReadonlyMap<string, unknown>,
  graceDays: number,
  today: string,
  limit = 36,
): Readonly<{ periodStart: string; due: string }>[] => {
  const { subscription } = state;
  if (subscription.meters.length === 0) return [];
  const latest = [...billed.keys()].sort(compareDates).at(-1);
  const from = latest === undefined ? subscription.startDate : addDays(latest, -1);
  const final = finalUsagePeriodStart(state);
  const due: { periodStart: string; due: string }[] = [];
  let period: Period = periodContaining(subscription.startDate, subscription.interval, compareDates(from, subscription.startDate) < 0 ? subscription.startDate : from);
  while (due.length < limit && (final === null || compareDates(period.start, final) <= 0)) {
    const dueDate = addDays(usageEnd(state, period), graceDays);
    if (compareDates(dueDate, today) > 0) break;
    if (!billed.has(period.start)) due.push({ periodStart: period.start, due: dueDate });
    period = periodContaining(subscription.startDate, subscription.interval, period.end);
  }
  return due;
};

export type UsageBillDecision = Readonly<{ events: UsageEvent<'UsagePeriodBilled'>[]; billed: UsagePeriodBilledData }>;

/**
 * Bill one usage period once: from the stream's own totals, every meter of the subscription with what
 * it reported. The invoice id is recorded only when the meters bill anything (usage, or a minimum,
 * priced above zero) and invoices are raised; otherwise the period is billed with no invoice. A
 * period already billed answers what was recorded and appends nothing, whatever changed since.
 */
export const decideUsageBill = (command: BillUsagePeriod, state: UsageState): UsageBillDecision => {
  const done = state.billed.get(command.periodStart);
  if (done) return { events: [], billed: done };
  const period = usagePeriodToBill(command.subscription, command.periodStart, command.today);
  const { subscription } = command.subscription;
  const meters = command.meters.map((meter) => {
    const total = state.totals.get(period.start)?.get(meter.meterId);
    return { meterId: meter.meterId, quantity: formatQuantity(total?.quantity ?? 0n), events: total?.events ?? 0 };
  });
  const invoiced = command.raisesInvoices && billsAnything(meterBills(command.meters, { meters }));
  const billed: UsagePeriodBilledData = {
    subscriptionId: subscription.subscriptionId,
    periodStart: period.start,
    periodEnd: period.end,
    invoiceId: invoiced ? command.invoiceId : null,
    billedAt: command.now,
    meters,
  };
  return { events: [{ type: 'UsagePeriodBilled', data: billed }], billed };
};
