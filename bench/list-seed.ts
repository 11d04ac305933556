import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../infra/config';
import { newId } from '../infra/ids';
import { silentLogger } from '../infra/logger';
import type { Doc, Write } from '../infra/read-store/port';
import { INVOICES, type InvoiceDoc } from '../projections/read-models/invoices';
import { SUBSCRIPTIONS, type SubscriptionDoc } from '../projections/read-models/subscriptions';
import { startService } from '../service/server';

/** The filtered-list row's served process: `BENCH_SEED` as JSON. */
export type ListSeed = Readonly<{ objects: number; keys: number }>;

export type ListServed = Readonly<{
  url: string;
  keys: string[];
  /** A value of each filter that selects a few objects (a customer's), and an invoice to read by id (the row's baseline). */
  customer: string;
  customerCode: string;
  subscription: string;
  invoice: string;
}>;

const ADMIN_TOKEN = 'bench-admin-token-0123456789';
/** Objects per customer: 100,000 objects are 10,000 customers' ten each. */
const PER_CUSTOMER = 10;
/** Statuses in turn, a rare one (voided) one time in a hundred: `status=voided,deleted` finds few among many. */
const statusOf = (i: number): InvoiceDoc['status'] => (i % 100 === 0 ? 'voided' : (['draft', 'approved', 'paid'] as const)[i % 3]!);
const WRITTEN_AT_ONCE = 1_000;

/**
 * The service with `objects` invoices and as many subscriptions in its sandbox's read models: one
 * subscription created over HTTP, its document and its invoice's written again under fresh ids,
 * ten per customer, the statuses spread (straight into the read models: the row measures the
 * lists' reads, and a log of 200,000 creations would take minutes to write).
 */
export const serveLists = async (seed: ListSeed) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-'));
  const service = await startService(loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ADMIN_TOKEN }), silentLogger());
  const sandboxId = service.demo!.sandboxId;
  const post = async (path: string, token: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${service.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, ...headers }, body: JSON.stringify(body) });
    if (response.status >= 300) throw new Error(`seeding ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const created = (await post('/v1/subscriptions', service.demo!.apiKey, { customer_code: 'ACME', plan_code: 'team', units: 3 }, { 'Idempotency-Key': 'lists' })) as { id: string; invoice: { id: string } };
  const { readStore } = service.services;
  const subscription = (await readStore.get<SubscriptionDoc>(SUBSCRIPTIONS, created.id))!;
  const invoice = (await readStore.get<InvoiceDoc>(INVOICES, created.invoice.id))!;
  const customers = Array.from({ length: Math.ceil(seed.objects / PER_CUSTOMER) }, (_, c) => ({ id: newId('customer'), code: `L${c}` }));
  const subscriptionIds = Array.from({ length: seed.objects }, () => newId('subscription'));
  const created0 = Date.parse(invoice.created) - seed.objects * 1000;
  for (let first = 0; first < seed.objects; first += WRITTEN_AT_ONCE) {
    const writes: Write[] = [];
    for (let i = first; i < Math.min(seed.objects, first + WRITTEN_AT_ONCE); i++) {
      const customer = customers[Math.floor(i / PER_CUSTOMER)]!;
      const at = new Date(created0 + i * 1000).toISOString();
      const documents: Doc[] = [
        { ...subscription, id: subscriptionIds[i]!, customer: customer.id, customer_code: customer.code, status: i % 100 === 0 ? 'ended' : 'active', created: at },
        { ...invoice, id: newId('invoice'), customer: customer.id, subscription: subscriptionIds[i]!, status: statusOf(i), created: at },
      ];
      writes.push({ op: 'put', collection: SUBSCRIPTIONS, doc: documents[0]! }, { op: 'put', collection: INVOICES, doc: documents[1]! });
    }
    await readStore.commit(writes);
  }
  const keys: string[] = [];
  for (let i = 0; i < seed.keys; i++) keys.push((await post(`/admin/v1/organisations/${sandboxId}/api_keys`, ADMIN_TOKEN, { name: `lists ${i}`, scopes: ['subscriptions:read', 'invoices:read'] })).key as string);
  const sampled = customers[Math.floor(customers.length / 2)]!;
  const served: ListServed = { url: service.url, keys, customer: sampled.id, customerCode: sampled.code, subscription: subscriptionIds[Math.floor(seed.objects / 2)]!, invoice: invoice.id };
  return {
    served,
    stop: async () => {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
