import type { CreditNoteEvent, CreditNoteRaisedData } from '../../../domain/credit-note/events';
import type { InvoiceEvent, InvoiceLine } from '../../../domain/invoice/events';
import { parseMoney } from '../../../domain/pricing/money';
import { type Month, monthOf } from '../../../domain/reports/months';
import type { RevenueMonth } from '../../../domain/reports/report-rows';
import { type BilledLine, combined, creditNoteReversals, invoiceRevenue, NO_REVENUE, type Revenue, REVENUE_TYPES } from '../../../domain/reports/revenue';
import type { Doc } from '../../../infra/read-store/port';
import { MRR_SUBSCRIPTIONS, type MrrSubscriptionDoc } from './mrr-movements';
import type { ProjectionContext } from '../../engine/projection';
import { timezoneOf } from './report-organisations';
import { addFigures, type Fields, type Figures, fieldsOf, figuresOf } from './report-fields';
import { addToMonth, type MonthDoc } from './report-months';

/** Per invoice and credit note: what it adds to its month (a credit note takes away what it reverses), and whether it counts. */
export const REVENUE_DOCUMENTS = 'revenue_documents';
/** Per organisation, currency and month: revenue by type net of the credit notes reversing it, and the credits. */
export const REVENUE_MONTHS = 'revenue_months';

const INVOICE_EVENT_TYPES = ['InvoiceRaised', 'InvoiceLinesAmended', 'InvoiceSynced', 'InvoiceStatusObserved', 'InvoiceRemoved'] as const;
const CREDIT_NOTE_EVENT_TYPES = ['CreditNoteRaised', 'CreditNoteSynced', 'CreditNoteStatusObserved', 'CreditNoteAllocated'] as const;
/** The invoice and credit note events the revenue follows: what a document adds, and whether it counts. */
export const REVENUE_EVENT_TYPES = [...INVOICE_EVENT_TYPES, ...CREDIT_NOTE_EVENT_TYPES];
export type RevenueEvent = InvoiceEvent<(typeof INVOICE_EVENT_TYPES)[number]> | CreditNoteEvent<(typeof CREDIT_NOTE_EVENT_TYPES)[number]>;

type RevenueDocumentFields = {
  id: string;
  _organisation: string;
  currency: string;
  /** The invoice or credit note date: its month is of the organisation's timezone. */
  date: string;
  month: Month;
  /** Voided and deleted documents count zero. */
  counted: boolean;
  /** What it adds to its month, those that are 0 left out: by revenue type, an invoice's lines less what a credit note reverses; a credit note's `credits`. */
  adds: Fields;
  /** An invoice's lines as a credit note crediting it reads them. */
  lines: { effective_date: string | null; revenue_type: BilledLine['revenueType'] }[];
};
export type RevenueDocumentDoc = Doc & RevenueDocumentFields;

/** A document as version 1 wrote it: by revenue type and credits, every amount formatted, 0 included. */
type FirstVersionFields = { adds?: undefined; revenue: Record<string, string>; credits: string };

/**
 * What a document adds to its month. While a new generation is rebuilt, the live one follows the
 * log with this code over documents an earlier version wrote: what they add is read as they hold it.
 */
const addsOf = (doc: RevenueDocumentDoc | (Omit<RevenueDocumentDoc, 'adds'> & FirstVersionFields)): Figures => {
  if (doc.adds) return figuresOf(doc.adds);
  const figures: Figures = {};
  for (const [field, amount] of [...REVENUE_TYPES.map((type) => [type, doc.revenue[type] ?? '0']), ['credits', doc.credits]] as const) {
    if (parseMoney(amount) !== 0n) figures[field] = parseMoney(amount);
  }
  return figures;
};

const addToItsMonth = (context: ProjectionContext, doc: RevenueDocumentDoc, sign: 1 | -1, recorded: string) => {
  const change: Figures = {};
  addFigures(change, addsOf(doc), sign);
  return addToMonth(context, REVENUE_MONTHS, { organisationId: doc._organisation, currency: doc.currency, month: doc.month }, change, recorded);
};

/** The document as it now stands, its month's sums following what changed of it (recorded at `recorded`). */
const settle = async (context: ProjectionContext, before: RevenueDocumentDoc | null, after: RevenueDocumentDoc, recorded: string): Promise<void> => {
  if (before?.counted) await addToItsMonth(context, before, -1, recorded);
  if (after.counted) await addToItsMonth(context, after, 1, recorded);
  context.put(REVENUE_DOCUMENTS, after);
};

/** A status seen in the accounting system: a voided or deleted document counts zero. */
const statusSeen = async (context: ProjectionContext, id: string, status: string, recorded: string): Promise<void> => {
  const doc = await context.get<RevenueDocumentDoc>(REVENUE_DOCUMENTS, id);
  const counted = status !== 'voided' && status !== 'deleted';
  if (doc && doc.counted !== counted) await settle(context, doc, { ...doc, counted }, recorded);
};

/** The month of a document's date in its organisation's timezone. */
const monthIn = async (context: ProjectionContext, organisationId: string, date: string): Promise<Month> => monthOf(Date.parse(date), await timezoneOf(context, organisationId));

/** An invoice's lines as a credit note crediting it reads them. */
const billedLines = (lines: readonly InvoiceLine[]): RevenueDocumentFields['lines'] => lines.map((line) => ({ effective_date: line.effectiveDate, revenue_type: line.revenueType }));

/** What a credit note reverses: the lines of the invoice it credits, and when the subscription's first renewal line bills from. */
const reversalsOf = async (context: ProjectionContext, data: CreditNoteRaisedData): Promise<Revenue> => {
  const invoice = data.invoiceId ? await context.get<RevenueDocumentDoc>(REVENUE_DOCUMENTS, data.invoiceId) : null;
  const subscription = data.subscriptionId ? await context.get<MrrSubscriptionDoc>(MRR_SUBSCRIPTIONS, data.subscriptionId) : null;
  const credited = (invoice?.lines ?? []).map((line) => ({ effectiveDate: line.effective_date, revenueType: line.revenue_type }));
  return creditNoteReversals(data.lines, credited, subscription?.first_renewal ?? null);
};

/** An invoice or credit note event: the document's contribution to its month follows. */
export const applyRevenue = async (event: RevenueEvent, recorded: string, context: ProjectionContext): Promise<void> => {
  switch (event.type) {
    case 'InvoiceRaised': {
      const { data } = event;
      // Written whole: a copy with fields added (`{ ...fields, month }`) costs V8 about 40 times as much.
      const doc: RevenueDocumentDoc = {
        id: data.invoiceId,
        _organisation: data.organisationId,
        currency: data.currency,
        date: data.invoiceDate,
        month: await monthIn(context, data.organisationId, data.invoiceDate),
        counted: true,
        adds: fieldsOf(invoiceRevenue(data.lines)),
        lines: billedLines(data.lines),
      };
      return settle(context, null, doc, recorded);
    }
    case 'CreditNoteRaised': {
      const { data } = event;
      const doc: RevenueDocumentDoc = {
        id: data.creditNoteId,
        _organisation: data.organisationId,
        currency: data.currency,
        date: data.creditNoteDate,
        month: await monthIn(context, data.organisationId, data.creditNoteDate),
        counted: true,
        adds: fieldsOf({ ...combined(NO_REVENUE, await reversalsOf(context, data), -1n), credits: parseMoney(data.subtotal) }),
        lines: [],
      };
      return settle(context, null, doc, recorded);
    }
    case 'InvoiceLinesAmended': {
      const doc = await context.get<RevenueDocumentDoc>(REVENUE_DOCUMENTS, event.data.invoiceId);
      const { lines } = event.data;
      if (doc) {
        await settle(context, doc, { ...doc, adds: fieldsOf(invoiceRevenue(lines)), lines: billedLines(lines) }, recorded);
      }
      return;
    }
    case 'InvoiceSynced':
    case 'InvoiceStatusObserved':
    case 'InvoiceRemoved':
      return statusSeen(context, event.data.invoiceId, event.data.status, recorded);
    case 'CreditNoteSynced':
    case 'CreditNoteStatusObserved':
    case 'CreditNoteAllocated':
      return statusSeen(context, event.data.creditNoteId, event.data.status, recorded);
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
};

/** After the organisation's timezone changed: the document in its month of the new timezone. */
export const retimeDocument = async (context: ProjectionContext, doc: RevenueDocumentDoc, timezone: string, recorded: string): Promise<void> => {
  const month = monthOf(Date.parse(doc.date), timezone);
  if (month !== doc.month) await settle(context, doc, { ...doc, month }, recorded);
};

/** A month's document as the report rows take it. */
export const toRevenueMonth = (doc: MonthDoc): RevenueMonth => ({
  month: doc.month,
  currency: doc.currency,
  revenue: Object.fromEntries(REVENUE_TYPES.map((type) => [type, parseMoney((doc[type] as string | undefined) ?? '0')])) as Revenue,
  credits: parseMoney((doc.credits as string | undefined) ?? '0'),
});
