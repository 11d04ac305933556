import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../infra/config';
import { silentLogger } from '../infra/logger';
import { enableGroupCommit } from '../infra/sqlite/group-commit';
import { startService } from '../service/server';
import { loopGaps } from './loop-gaps';
import { copySubscription } from './subscription-copies';

/** What the served process of the billing day makes before the parent's load: `BENCH_SEED` as JSON. */
export type BillingDaySeed = Readonly<{
  /** Subscriptions of the sandbox sharing one renewal date, each of its own customer. */
  subscriptions: number;
  /** The parent's webhook receiver: an endpoint subscribed to every event is made for it. */
  webhookUrl: string;
  /** API keys to read with (the rate limit is per key). */
  readKeys: number;
}>;

export type BillingDayServed = Readonly<{
  url: string;
  adminToken: string;
  sandboxId: string;
  readKeys: string[];
  /** Some of the subscriptions, for the read load. */
  sample: string[];
  /** Their one renewal date: an advance to it raises every renewal invoice and rolls every subscription over. */
  renewalDate: string;
}>;

/** Events recorded since the service was seeded, by type (what the parent waits for), and the commits (fsyncs) made meanwhile. */
export type BillingDayCounts = Readonly<{ raised: number; synced: number; renewed: number; commits: number; cpuMs: number; longestStallMs: number }>;

const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const COUNTED = { SubscriptionRenewalInvoiceRaised: 'raised', InvoiceSynced: 'synced', SubscriptionRenewed: 'renewed' } as const;

/**
 * The served process of the billing-day rows: the embedded service with its demonstration sandbox,
 * one subscription created over HTTP (with its customer and its contact in the demonstration
 * accounting system), then copied into the log under fresh ids until the sandbox holds `subscriptions`
 * of them, all renewing on one date (`copySubscription`; the first invoice is not copied, so nothing
 * is pushed before the billing day). A webhook endpoint for the parent's receiver is made last, so
 * only the billing day is announced.
 */
export const serveBillingDay = async (seed: BillingDaySeed) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-'));
  const service = await startService(
    loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ADMIN_TOKEN, WEBHOOK_ALLOW_LOOPBACK: 'true', ACCOUNTING_POLL_SECONDS: '5' }),
    silentLogger(),
  );
  const sandboxId = service.demo!.sandboxId;
  const call = async (path: string, body: unknown, token = ADMIN_TOKEN, headers: Record<string, string> = {}) => {
    const response = await fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`seeding ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };

  const template = (await call('/v1/subscriptions', { customer_code: 'B0', create_customer: { name: 'Billing Day 0' }, plan_code: 'team', units: 3 }, service.demo!.apiKey, {
    'Idempotency-Key': 'billing-day-template',
  })) as { id: string; customer: string; renewal_date: string };
  const { store } = service.services;
  const ids = [template.id, ...(await copySubscription(store, { subscriptionId: template.id, customerId: template.customer }, seed.subscriptions - 1))];
  await service.services.projections.waitFor(await store.headPosition(), 600_000);

  const readKeys: string[] = [];
  for (let i = 0; i < seed.readKeys; i++) readKeys.push((await call(`/admin/v1/organisations/${sandboxId}/api_keys`, { name: `read ${i}`, scopes: ['subscriptions:read'] })).key as string);
  await call(`/admin/v1/organisations/${sandboxId}/webhook_endpoints`, { url: seed.webhookUrl, events: ['*'] });

  const counts = { raised: 0, synced: 0, renewed: 0 };
  const group = enableGroupCommit(service.services.db);
  const commitsBefore = group.counts.commits;
  const cpuBefore = process.cpuUsage();
  const stalls = loopGaps();
  const append = store.append.bind(store);
  store.append = async (streamId, events, expected) => {
    const appended = await append(streamId, events, expected);
    for (const event of events) {
      const counted = COUNTED[event.type as keyof typeof COUNTED];
      if (counted) counts[counted] += 1;
    }
    return appended;
  };
  const served: BillingDayServed = {
    url: service.url,
    adminToken: ADMIN_TOKEN,
    sandboxId,
    readKeys,
    sample: ids.filter((_, i) => i % Math.max(1, Math.floor(ids.length / 1000)) === 0),
    renewalDate: template.renewal_date,
  };
  return {
    served,
    counts: (): BillingDayCounts => {
      const cpu = process.cpuUsage(cpuBefore);
      return { ...counts, commits: group.counts.commits - commitsBefore, cpuMs: (cpu.user + cpu.system) / 1000, longestStallMs: stalls.longest() };
    },
    stop: async () => {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
