import type { CreditNoteEvent } from '../domain/credit-note/events';
import type { InvoiceEvent } from '../domain/invoice/events';
import type { OrganisationCreated, OrganisationSettingsChanged } from '../domain/organisation/events';
import { RECURRING_EVENT_TYPES, type RecurringEvent } from '../domain/reports/subscription-mrr';
import { applyRevenue, REVENUE_DOCUMENTS, REVENUE_EVENT_TYPES, REVENUE_MONTHS, type RevenueDocumentDoc, retimeDocument } from './invoiced-revenue';
import { applyRecurring, MRR_MONTHS, MRR_SUBSCRIPTIONS, type MrrSubscriptionDoc, retimeSubscription } from './mrr-movements';
import type { Projection, ProjectionContext } from './projection';
import { membersOf, REPORT_MEMBERS, REPORT_ORGANISATIONS, setTimezone } from './report-organisations';

type ReportEvent = RecurringEvent | Extract<InvoiceEvent | CreditNoteEvent, { type: (typeof REVENUE_EVENT_TYPES)[number] }> | OrganisationCreated | OrganisationSettingsChanged;

const RECURRING: ReadonlySet<string> = new Set(RECURRING_EVENT_TYPES);

/** The organisation's timezone changed: every subscription's movements and every document go to their months of the new one. */
const retimeOrganisation = async (context: ProjectionContext, organisationId: string, timezone: string): Promise<void> => {
  for await (const id of membersOf(context, organisationId)) {
    const subscription = await context.get<MrrSubscriptionDoc>(MRR_SUBSCRIPTIONS, id);
    if (subscription) await retimeSubscription(context, subscription, timezone);
    const document = subscription ? null : await context.get<RevenueDocumentDoc>(REVENUE_DOCUMENTS, id);
    if (document) await retimeDocument(context, document, timezone);
  }
};

/**
 * The revenue reports' read model: each month's MRR movements and invoiced revenue, per organisation
 * and currency, kept as events arrive (a report reads a few documents a month, never the log), in
 * the months of the organisation's timezone.
 */
export const revenueReportsProjection: Projection = {
  name: 'revenue_reports',
  version: 1,
  collections: [REPORT_ORGANISATIONS, REPORT_MEMBERS, MRR_SUBSCRIPTIONS, MRR_MONTHS, REVENUE_DOCUMENTS, REVENUE_MONTHS],
  indexes: [REPORT_MEMBERS, MRR_SUBSCRIPTIONS, MRR_MONTHS, REVENUE_DOCUMENTS, REVENUE_MONTHS].map((collection) => ({ collection, fields: ['_organisation'] })),
  handles: ['OrganisationCreated', 'OrganisationSettingsChanged', ...RECURRING_EVENT_TYPES, ...REVENUE_EVENT_TYPES],
  apply: async (event, context) => {
    const typed = event as unknown as ReportEvent;
    if (typed.type === 'OrganisationCreated' || typed.type === 'OrganisationSettingsChanged') {
      const { organisationId } = typed.data;
      const timezone = typed.type === 'OrganisationCreated' ? typed.data.settings.timezone : typed.data.changes.timezone;
      if (timezone !== undefined && (await setTimezone(context, organisationId, timezone))) await retimeOrganisation(context, organisationId, timezone);
      return;
    }
    if (RECURRING.has(typed.type)) return applyRecurring(typed as RecurringEvent, event.metadata.businessTime, context);
    return applyRevenue(typed as Exclude<ReportEvent, RecurringEvent | OrganisationCreated | OrganisationSettingsChanged>, context);
  },
};
