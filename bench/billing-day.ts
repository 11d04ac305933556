import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BillingDayCounts, BillingDayServed } from './billing-day-seed';
import { readLoad, type ReadLoadResult } from './read-load';
import { startServed } from './served-process';
import { startWebhookCounter } from './webhook-counter';

/** The read load beside the billing day and the reset: the issue's 20 requests a second. */
export const READS_PER_SECOND = 20;
const READ_KEYS = 16;
/** A billing day that has not ended by then fails the row. */
const DAY_LIMIT_MS = 30 * 60_000;

export type BillingDayFigures = Readonly<{
  subscriptions: number;
  /** From the advance's request: its answer, and when every renewal invoice was raised, synced and announced (`invoice.created`). */
  answeredMs: number;
  raisedMs: number;
  syncedMs: number;
  announcedMs: number;
  /** Renewals raised, pushed and announced per second: the subscriptions over the time to the last announcement. */
  perSecond: number;
  /** Commits (fsyncs) of the service's connection per renewal, until the last was announced. */
  commitsPerRenewal: number;
  /** The server process's CPU time per renewal (every thread), steadier than the rate on a busy machine. */
  cpuMsPerRenewal: number;
  /** The longest the service's loop went without a turn (measured inside it), until the last renewal was announced. */
  longestStallMs: number;
  reads: ReadLoadResult;
  /** The sandbox emptied afterwards: the reset's answer, and until its list of subscriptions is empty, with the read load (of the organisation) meanwhile. */
  reset: Readonly<{ ms: number; emptiedMs: number; reads: ReadLoadResult }>;
}>;

/** A POST without the client timeouts `fetch` has (an advance of a large sandbox may take minutes); resolves with the status. */
const post = (url: string, token: string, body: unknown): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });

/**
 * One billing day: a sandbox of `subscriptions` renewing on one date (`bench/billing-day-seed.ts`),
 * its test clock advanced to that date while 20 requests a second read its subscriptions; the time
 * until every renewal invoice is raised, synced (pushed to the demonstration accounting system) and
 * announced to a webhook endpoint; then the sandbox reset under the same load.
 */
export const billingDay = async (subscriptions: number, profileDir: string | null): Promise<BillingDayFigures> => {
  const webhooks = await startWebhookCounter();
  const server = await startServed<BillingDayServed>('billing-day', { subscriptions, webhookUrl: webhooks.url, readKeys: READ_KEYS }, profileDir);
  try {
    const { url, adminToken, sandboxId, readKeys, sample, renewalDate } = server.ready;
    const origin = new URL(url).origin;
    const reads = readLoad(origin, READS_PER_SECOND, readKeys, sample.map((id) => `/v1/subscriptions/${id}`));
    // A second of the load alone first: its figures include the quiet service's.
    await sleep(1000);
    const started = performance.now();
    const since = () => performance.now() - started;
    const reached = { raisedMs: 0, syncedMs: 0, announcedMs: 0 };
    let answeredMs = 0;
    let failed: unknown = null;
    let commits = 0;
    let cpuMs = 0;
    let longestStallMs = 0;
    const advanced = post(`${origin}/admin/v1/organisations/${sandboxId}/clock/advance`, adminToken, { date: renewalDate }).then(
      (status) => {
        if (status === 200) answeredMs = since();
        else failed = new Error(`the advance answered ${status}`);
      },
      (error: unknown) => (failed = error),
    );
    while (reached.announcedMs === 0 || reached.syncedMs === 0 || answeredMs === 0) {
      if (failed !== null || since() > DAY_LIMIT_MS) throw failed instanceof Error ? failed : new Error(`the billing day of ${subscriptions} was not over within ${DAY_LIMIT_MS / 60_000} minutes`);
      await sleep(50);
      const counts = (await server.ask<BillingDayCounts>('counts'))!;
      ({ commits, cpuMs, longestStallMs } = counts);
      if (reached.raisedMs === 0 && counts.raised >= subscriptions) reached.raisedMs = since();
      if (reached.syncedMs === 0 && counts.synced >= subscriptions) reached.syncedMs = since();
      if (reached.announcedMs === 0 && webhooks.count('invoice.created') >= subscriptions) reached.announcedMs = since();
    }
    await advanced;
    const duringDay = await reads.stop();

    const resetReads = readLoad(origin, READS_PER_SECOND, readKeys, ['/v1/organisation']);
    await sleep(1000);
    const resetStarted = performance.now();
    const status = await post(`${origin}/admin/v1/organisations/${sandboxId}/reset`, adminToken, { copy: { settings: true, catalogue: true, customers: false, subscriptions: false } });
    if (status !== 200) throw new Error(`the reset answered ${status}`);
    const resetMs = performance.now() - resetStarted;
    // The reset is answered once its read models have taken it in, or past their bounded wait: its time is until they show none.
    const readKey = readKeys[0]!;
    while (((await (await fetch(`${origin}/v1/subscriptions?limit=1`, { headers: { authorization: `Bearer ${readKey}` } })).json()) as { data: unknown[] }).data.length > 0) await sleep(50);
    const emptiedMs = performance.now() - resetStarted;
    await sleep(500);
    return {
      subscriptions,
      answeredMs,
      ...reached,
      perSecond: subscriptions / (Math.max(reached.announcedMs, reached.syncedMs) / 1000),
      commitsPerRenewal: commits / subscriptions,
      cpuMsPerRenewal: cpuMs / subscriptions,
      longestStallMs,
      reads: duringDay,
      reset: { ms: resetMs, emptiedMs, reads: await resetReads.stop() },
    };
  } finally {
    await server.stop();
    await webhooks.close();
  }
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const readsOf = (reads: ReadLoadResult) => {
  const failed = Object.entries(reads.failed).map(([status, count]) => `${status} × ${count}`);
  return `reads p99 ${reads.p99Ms.toFixed(0)} ms, longest gap ${reads.longestGapMs.toFixed(0)} ms (${reads.failures} failed of ${reads.requests}${failed.length > 0 ? `: ${failed.join(', ')}` : ''})`;
};

export const formatBillingDay = (figures: BillingDayFigures): string[] => [
  `  N = ${figures.subscriptions}: raised ${seconds(figures.raisedMs)}, synced ${seconds(figures.syncedMs)}, announced ${seconds(figures.announcedMs)} (advance answered ${seconds(figures.answeredMs)}); ${figures.perSecond.toFixed(0)} renewals/s, ${figures.commitsPerRenewal.toFixed(2)} commits and ${figures.cpuMsPerRenewal.toFixed(2)} ms of server CPU each; ${readsOf(figures.reads)}; the service's loop stalled at most ${figures.longestStallMs.toFixed(0)} ms`,
  `    sandbox reset of ${figures.subscriptions}: emptied ${seconds(figures.reset.emptiedMs)} (answered ${seconds(figures.reset.ms)}); ${readsOf(figures.reset.reads)}`,
];
