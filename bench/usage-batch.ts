import { usageRecordedData } from '../domain/usage/events';
import type { NewEvent } from '../infra/event-store/port';
import { appendedEvent } from './appended-event';

const NOW = '2026-02-10T00:00:00.000Z';
const METADATA = { organisationId: 'org_bench', livemode: true, businessTime: NOW, recordedTime: NOW, actor: { type: 'system' as const }, requestId: null, causationId: null, correlationId: null };

/** A usage batch as the service appends it: each of `ids` one api_call of org_bench's subscription, in February 2026. */
export const usageBatchAppended = (subscriptionId: string, ids: readonly string[]): NewEvent =>
  appendedEvent(
    'UsageRecorded',
    usageRecordedData(
      subscriptionId,
      'org_bench',
      NOW,
      ids.map((eventId) => ({ eventId, meterId: 'mtr_calls', meterCode: 'api_calls', quantity: '1.0000', timestamp: NOW, timestampSent: false, periodStart: '2026-02-01', periodEnd: '2026-03-01' })),
    ),
    METADATA,
  );
