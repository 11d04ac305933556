import { z } from 'zod';
import type { SubscriptionEvent } from '../../domain/subscription/events';
import { dueSteps, type ScheduleView, STEP_KINDS } from '../../domain/subscription/schedule';
import { SUBSCRIPTION_STATUSES } from './subscriptions';
import type { Projection } from '../engine/projection';

export const DUE_DATES = 'due_dates';

const dueDate = z.string().nullable();

/**
 * What time will do to a subscription next, so the scheduler finds due work without reading every
 * subscription: the facts the schedule reads, the date each step kind falls due, and the earliest of
 * them. The renewal invoice is kept at the renewal date it bills from (its lead days are the
 * organisation's: the scheduler asks for `next_due` up to today plus them).
 */
export const dueDatesDocument = z.object({
  id: z.string(),
  _organisation: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  start_date: z.string(),
  renewal_date: z.string(),
  end_date: z.string().nullable(),
  renewal_invoice_raised: z.boolean(),
  /** It bills meters: its closed usage periods are billed in arrears (the usage step source asks these). */
  metered: z.boolean(),
  due: z.object(Object.fromEntries(STEP_KINDS.map((kind) => [kind, dueDate])) as Record<(typeof STEP_KINDS)[number], typeof dueDate>),
  /** The earliest of `due`; null when nothing is left to do (ended, complete). */
  next_due: z.string().nullable(),
});
export type DueDatesDoc = z.infer<typeof dueDatesDocument>;

/** The facts the schedule reads, of a document or of one being made. */
type Facts = Omit<DueDatesDoc, 'due' | 'next_due'>;

export const viewOfDoc = (doc: Facts): ScheduleView => ({
  status: doc.status,
  startDate: doc.start_date,
  renewalDate: doc.renewal_date,
  endDate: doc.end_date,
  renewalInvoiceRaised: doc.renewal_invoice_raised,
});

/**
 * The document with its due dates recomputed from its facts (a lead of 0: the renewal invoice at its
 * renewal date). Written out field by field: a rebuild makes one for each subscription event, and
 * spreads of the facts cost it several times as much.
 */
const withDueDates = (facts: Facts): DueDatesDoc => {
  const steps = dueSteps(viewOfDoc(facts), 0);
  const due: DueDatesDoc['due'] = { start: null, renewal_invoice: null, renewal: null, complete: null };
  for (const step of steps) due[step.kind] = step.date;
  const { id, _organisation, status, start_date, renewal_date, end_date, renewal_invoice_raised, metered } = facts;
  return { id, _organisation, status, start_date, renewal_date, end_date, renewal_invoice_raised, metered, due, next_due: steps[0]?.date ?? null };
};

const HANDLED = [
  'SubscriptionCreated',
  'SubscriptionRenewalInvoiceRaised',
  'SubscriptionEndScheduled',
  'SubscriptionEnded',
  'SubscriptionRestored',
  'SubscriptionStarted',
  'SubscriptionRenewed',
  'SubscriptionCompleted',
] as const;
type Handled = Extract<SubscriptionEvent, { type: (typeof HANDLED)[number] }>;

const applied = (doc: DueDatesDoc, event: Exclude<Handled, { type: 'SubscriptionCreated' }>): Facts => {
  switch (event.type) {
    case 'SubscriptionRenewalInvoiceRaised':
      return { ...doc, renewal_invoice_raised: true };
    case 'SubscriptionEndScheduled':
      return { ...doc, end_date: event.data.endDate };
    case 'SubscriptionEnded':
      return { ...doc, status: 'ended', end_date: event.data.endDate };
    case 'SubscriptionRestored':
      return { ...doc, status: event.data.status, end_date: null, renewal_invoice_raised: doc.renewal_invoice_raised || event.data.renewalInvoiceId !== null };
    case 'SubscriptionStarted':
      return { ...doc, status: 'active' };
    case 'SubscriptionRenewed':
      return { ...doc, renewal_date: event.data.renewalDate, renewal_invoice_raised: false };
    case 'SubscriptionCompleted':
      return { ...doc, status: 'complete' };
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
};

export const dueDatesProjection: Projection<Handled> = {
  name: 'due_dates',
  version: 1,
  collections: [DUE_DATES],
  // The scheduler pages through the due ones, and through the metered ones, a seek a page.
  indexes: [
    { collection: DUE_DATES, fields: ['_organisation', 'next_due', 'id'] },
    { collection: DUE_DATES, fields: ['_organisation', 'metered', 'id'] },
  ],
  handles: HANDLED,
  apply: async (event, context) => {
    if (event.type === 'SubscriptionCreated') {
      const s = event.data;
      context.put(
        DUE_DATES,
        withDueDates({
          id: s.subscriptionId,
          _organisation: s.organisationId,
          status: s.status,
          start_date: s.startDate,
          renewal_date: s.renewalDate,
          end_date: s.endDate,
          renewal_invoice_raised: false,
          metered: s.meters.length > 0,
        }),
      );
      return;
    }
    const doc = await context.get<DueDatesDoc>(DUE_DATES, event.data.subscriptionId);
    if (doc) context.put(DUE_DATES, withDueDates(applied(doc, event)));
  },
};
