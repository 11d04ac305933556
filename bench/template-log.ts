import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../infra/config';
import type { NewEvent, StoredEvent } from '../infra/event-store/port';
import { SqliteEventStore } from '../infra/event-store/sqlite';
import { silentLogger } from '../infra/logger';
import { openDatabase } from '../infra/sqlite/open-database';
import { startService } from '../service/server';
import { databaseFile } from '../service/services';
import { appendedEvent } from './appended-event';

export type TemplateLog = Readonly<{
  /** The data directory the template was recorded in (the quick start's organisations, and one creation). */
  dataDir: string;
  organisationId: string;
  /** Events in one copy. */
  perCopy: number;
  /**
   * Copy `i` of the creation's streams (customer, subscription, invoice raised and synced) under
   * fresh ids; recorded `earlierMs` before the original (0: at the same instants).
   */
  copy(i: number, earlierMs?: number): { streamId: string; events: NewEvent[] }[];
  /** An invoice's stream of `failures` + 1 events: raised once, then its push failing again and again. */
  longInvoice(invoiceId: string, failures: number): NewEvent[];
}>;

/** Records one subscription creation with the real service over HTTP, to be copied into bench logs. */
export const recordTemplate = async (): Promise<TemplateLog> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-log-'));
  const service = await startService(
    loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ADMIN_TOKEN: 'bench-admin-token-0123456789' }),
    silentLogger(),
  );
  const response = await fetch(`${service.url}/v1/subscriptions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${service.demo!.apiKey}`, 'Idempotency-Key': 'template' },
    body: JSON.stringify({ customer_code: 'TEMPLATE', create_customer: { name: 'Template Ltd' }, plan_code: 'team', units: 3 }),
  });
  const { id: subscriptionId, customer: customerId, invoice } = (await response.json()) as { id: string; customer: string; invoice: { id: string } };
  const organisationId = service.demo!.sandboxId;
  await service.stop();

  const db = openDatabase(databaseFile(dataDir));
  const store = new SqliteEventStore(db);
  const streams = await Promise.all([`customer-${customerId}`, `subscription-${subscriptionId}`, `invoice-${invoice.id}`].map((s) => store.readStream(s)));
  db.close();
  const template = streams.map((events) => events.map((e) => ({ ...e, data: JSON.stringify(e.data) })));
  const renamed = (text: string, i: number) =>
    text.replaceAll(subscriptionId, `sub_bench${i}`).replaceAll(customerId, `cus_bench${i}`).replaceAll(invoice.id, `inv_bench${i}`);
  const earlier = (instant: string, ms: number) => new Date(Date.parse(instant) - ms).toISOString();
  const fresh = (event: StoredEvent, data: unknown, earlierMs = 0): NewEvent => ({
    id: randomUUID(),
    type: event.type,
    version: event.version,
    data,
    metadata:
      earlierMs === 0
        ? event.metadata
        : { ...event.metadata, businessTime: earlier(event.metadata.businessTime, earlierMs), recordedTime: earlier(event.metadata.recordedTime, earlierMs) },
  });
  const raised = streams[2]![0]!;
  return {
    dataDir,
    organisationId,
    perCopy: template.reduce((n, events) => n + events.length, 0),
    copy: (i, earlierMs = 0) =>
      template.map((events) => ({ streamId: renamed(events[0]!.streamId, i), events: events.map((e) => fresh(e, JSON.parse(renamed(e.data, i)), earlierMs)) })),
    longInvoice: (invoiceId, failures) => [
      fresh(raised, JSON.parse(JSON.stringify(raised.data).replaceAll(invoice.id, invoiceId))),
      ...Array.from({ length: failures }, () => appendedEvent('InvoiceSyncFailed', { invoiceId, error: 'Locked period' }, raised.metadata)),
    ],
  };
};
