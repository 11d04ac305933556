import type { SubscriptionCreatedData } from '../../domain/subscription/events';
import type { SubscriptionUnitsChangedData } from '../../domain/subscription/lifecycle-events';
import { evolveRecurringFacts, mrrTimeline, type MrrTimeline, type RecurringEvent, recurringFactsOf } from '../../domain/reports/subscription-mrr';
import { subscriptionCreatedData } from './subscription-fixtures';

/** A recurring event and when it happened on the organisation's clock. */
export type Happened = Readonly<{ event: Exclude<RecurringEvent, { type: 'SubscriptionCreated' }>; at: string }>;

/** sub_1 in London, 5 seats at 10.0000 a month from 2026-01-15. */
export const created = (overrides: Partial<SubscriptionCreatedData> = {}): SubscriptionCreatedData =>
  subscriptionCreatedData({ timezone: 'Europe/London', startDate: '2026-01-15', currentPeriodStart: '2026-01-15', renewalDate: '2026-02-15', ...overrides });

/** A unit change: prorated from `effectiveDate`, or (null) without proration, from the renewal date. */
export const unitsChanged = (units: number, effectiveDate: string | null, renewalDate: string): Happened['event'] => {
  const data: SubscriptionUnitsChangedData = {
    subscriptionId: 'sub_1',
    changeId: `chg_${units}_${effectiveDate ?? renewalDate}`,
    changedAt: `${effectiveDate ?? renewalDate}T12:00:00.000Z`,
    previousUnits: 0,
    units,
    prorate: effectiveDate !== null,
    prorationBehaviour: effectiveDate === null ? null : 'charge_immediately',
    effectiveDate,
    document: null,
    periodStart: '2026-01-15',
    renewalDate,
    periodUnits: units,
    proration: effectiveDate === null ? null : { daysLeft: 1, daysInPeriod: 31, numerator: '0', amount: '0.0000' },
    invoiceId: null,
    creditNoteId: null,
    creditedInvoiceId: null,
    renewalAdjustment: null,
  };
  return { type: 'SubscriptionUnitsChanged', data };
};

export const cpiUplifted = (periodStart: string, price: string): Happened['event'] => ({
  type: 'SubscriptionCpiUplifted',
  data: { subscriptionId: 'sub_1', periodStart, year: 2026, percent: '3.50', price, tiers: [], meters: [] },
});

export const ended = (endDate: string): Happened['event'] => ({
  type: 'SubscriptionEnded',
  data: { subscriptionId: 'sub_1', operationId: `end_${endDate}`, endedAt: `${endDate}T12:00:00.000Z`, endDate, invoiceUsageNow: false, removals: [] },
});

export const endScheduled = (endDate: string): Happened['event'] => ({
  type: 'SubscriptionEndScheduled',
  data: { subscriptionId: 'sub_1', operationId: `end_${endDate}`, endDate, removals: [] },
});

export const restored = (from: 'ended' | 'cancel_at_period_end'): Happened['event'] => ({
  type: 'SubscriptionRestored',
  data: { subscriptionId: 'sub_1', operationId: `restore_${from}`, from, status: 'active', renewalInvoiceId: null, replacesInvoiceId: null },
});

/** The MRR timeline of a subscription created so, then through these events. */
export const timelineOf = (creation: SubscriptionCreatedData, history: readonly Happened[] = []): MrrTimeline =>
  mrrTimeline(history.reduce((facts, { event, at }) => evolveRecurringFacts(facts, event, at), recurringFactsOf(creation)));
