import type { OrganisationEvent } from '../../../domain/organisation/events';
import { RECURRING_EVENT_TYPES, type RecurringEvent } from '../../../domain/reports/subscription-mrr';
import { applyRevenue, REVENUE_DOCUMENTS, REVENUE_EVENT_TYPES, REVENUE_MONTHS, type RevenueDocumentDoc, type RevenueEvent, retimeDocument } from './invoiced-revenue';
import { applyRecurring, MRR_MONTHS, MRR_SUBSCRIPTIONS, type MrrSubscriptionDoc, retimeSubscription } from './mrr-movements';
import type { Projection, ProjectionContext } from '../../engine/projection';
import { REPORT_HISTORY } from './report-history';
import { endedGeneration, recordReset, REPORT_ORGANISATIONS, setTimezone } from './report-organisations';
import { forgetMonths } from './report-months';

type ReportEvent = RecurringEvent | RevenueEvent | OrganisationEvent<'OrganisationCreated' | 'OrganisationSettingsChanged' | 'SandboxReset'>;

const RECURRING: ReadonlySet<string> = new Set(RECURRING_EVENT_TYPES);
const isRecurring = (event: ReportEvent): event is RecurringEvent => RECURRING.has(event.type);

/**
 * The organisation's timezone changed (rarely): every subscription's movements and every document go
 * to their months of the new one, found by the organisation their documents are indexed by.
 */
const retimeOrganisation = async (context: ProjectionContext, organisationId: string, timezone: string, recorded: string): Promise<void> => {
  for (const subscription of await context.findWhere<MrrSubscriptionDoc>(MRR_SUBSCRIPTIONS, '_organisation', organisationId)) {
    await retimeSubscription(context, subscription, timezone, recorded);
  }
  for (const document of await context.findWhere<RevenueDocumentDoc>(REVENUE_DOCUMENTS, '_organisation', organisationId)) {
    await retimeDocument(context, document, timezone, recorded);
  }
};

/** What a sandbox reset empties: all but the timezones and the history, which tell the months as they stood before it. */
const EMPTIED = [MRR_SUBSCRIPTIONS, MRR_MONTHS, REVENUE_DOCUMENTS, REVENUE_MONTHS];

/**
 * The revenue reports' read model: each month's MRR movements and invoiced revenue, per organisation
 * and currency, kept as events arrive (a report reads a few documents a month, never the log), in
 * the months of the organisation's timezone, with the history of their changes by recording time
 * (`as_of`). A sandbox reset empties it as `emptiedBySandboxReset` does the others, but for its
 * history; so it tells a late write of an ended generation by the resets before it in the log
 * (`endedGeneration`), never by what a live runner has seen since: a rebuild writes the same history.
 */
export const revenueReportsProjection: Projection<ReportEvent> = {
  name: 'revenue_reports',
  version: 2,
  collections: [REPORT_ORGANISATIONS, REPORT_HISTORY, ...EMPTIED],
  // Each organisation's subscriptions and documents, listed for a change of timezone: found by their organisation instead.
  retired: ['report_members'],
  indexes: [...EMPTIED.map((collection) => ({ collection, fields: ['_organisation'] })), { collection: REPORT_HISTORY, fields: ['organisation', 'level', 'parent'] }],
  handles: ['OrganisationCreated', 'OrganisationSettingsChanged', 'SandboxReset', ...RECURRING_EVENT_TYPES, ...REVENUE_EVENT_TYPES],
  apply: async (event, context) => {
    const recorded = event.metadata.recordedTime;
    switch (event.type) {
      case 'OrganisationCreated':
      case 'OrganisationSettingsChanged': {
        const { organisationId } = event.data;
        const timezone = event.type === 'OrganisationCreated' ? event.data.settings.timezone : event.data.changes.timezone;
        if (timezone !== undefined && (await setTimezone(context, organisationId, timezone))) await retimeOrganisation(context, organisationId, timezone, recorded);
        return;
      }
      case 'SandboxReset': {
        const { organisationId, generation } = event.data;
        for (const collection of EMPTIED) context.deleteWhere(collection, '_organisation', organisationId);
        for (const collection of [MRR_MONTHS, REVENUE_MONTHS]) forgetMonths(context, collection, organisationId);
        return recordReset(context, organisationId, generation, recorded);
      }
      default:
        if (await endedGeneration(context, event.metadata)) return;
        return isRecurring(event) ? applyRecurring(event, event.metadata, context) : applyRevenue(event, recorded, context);
    }
  },
};
