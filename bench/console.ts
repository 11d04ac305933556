import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { buildSubscriptionLog } from './rebuild';

export const CONSOLE_SUBSCRIPTIONS = Number(process.env.BENCH_CONSOLE_SUBSCRIPTIONS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_CONSOLE_REQUESTS ?? 200);
const WARMUP = 20;
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
/** The console's bounds (console.md): every page answered in under 100 ms, no page transferring more than 300 KB. */
const BOUND_MS = 100;
const BOUND_BYTES = 300 * 1024;

type PageFigures = Readonly<{ label: string; p50Ms: number; p99Ms: number; bytes: number }>;

/** The service as `npm start` runs it (compiled), in its own process, on the data directory given. */
const startService = (dataDir: string): Promise<{ url: string; stop: () => Promise<void> }> =>
  new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [join(__dirname, '..', 'service', 'main.js')], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', ADMIN_TOKEN, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1];
      if (!url) return;
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      resolve({ url, stop: () => new Promise((done) => (child.once('exit', () => done()), child.kill('SIGTERM'))) });
    });
    child.once('exit', (code) => reject(new Error(`the service exited with ${code} before listening:\n${output}`)));
  });

/** Waits until every read model has applied the whole log: pages are timed on a service at rest, not one catching up. */
const caughtUp = async (url: string, write: (line: string) => void): Promise<void> => {
  for (let said = 0; ; ) {
    const response = await fetch(`${url}/admin/v1/projections`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    const { data } = (await response.json()) as { data: { lag: number }[] };
    const lag = Math.max(...data.map((projection) => projection.lag));
    if (lag === 0) return;
    if (Date.now() - said > 5_000) {
      write(`  read models catching up: ${lag} events behind`);
      said = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/** Signs in as a browser does (the form's CSRF token and the session cookie): the cookie a signed-in page sends. */
const signIn = async (url: string): Promise<string> => {
  const form = await fetch(`${url}/console/sign-in`);
  const cookie = form.headers.getSetCookie()[0]!.split(';')[0]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const signedIn = await fetch(`${url}/console/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Cookie: cookie, Origin: url, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, token: ADMIN_TOKEN }).toString(),
  });
  if (signedIn.status !== 303) throw new Error(`sign-in answered ${signedIn.status}`);
  return signedIn.headers.getSetCookie()[0]!.split(';')[0]!;
};

/** A page's whole transfer: its HTML and every script and stylesheet it loads (the console loads nothing else). */
const transfer = async (url: string, cookie: string, path: string): Promise<number> => {
  const page = await fetch(`${url}${path}`, { headers: { Cookie: cookie } });
  if (page.status !== 200) throw new Error(`${path} answered ${page.status}`);
  const html = await page.text();
  const assets = [...html.matchAll(/<(?:script src|link rel="stylesheet" href)="([^"]+)"/g)].map((match) => match[1]!);
  const sizes = await Promise.all(assets.map(async (asset) => (await (await fetch(`${url}${asset}`)).arrayBuffer()).byteLength));
  return Buffer.byteLength(html) + sizes.reduce((sum, size) => sum + size, 0);
};

/** `amount` GETs of one page, one after another on one connection: its latency as one reader sees it. */
const timeGets = (url: string, cookie: string, path: string, amount: number): Promise<{ p50Ms: number; p99Ms: number }> =>
  new Promise((resolve, reject) => {
    autocannon({ url: `${url}${path}`, connections: 1, amount, headers: { cookie } }, (error: unknown, result) => {
      if (error) return reject(error instanceof Error ? error : new Error(`autocannon failed: ${JSON.stringify(error)}`));
      if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`${path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`));
      resolve({ p50Ms: result.latency.p50, p99Ms: result.latency.p99 });
    });
  });

const formatPage = (figures: PageFigures, baseline: PageFigures | null): string => {
  const over = figures.p99Ms >= BOUND_MS || figures.bytes >= BOUND_BYTES ? '   OVER THE BOUND' : '';
  const ratio = baseline ? `   ${(figures.p50Ms / Math.max(baseline.p50Ms, 0.01)).toFixed(1)}× the baseline's p50` : '';
  return `${figures.label.padEnd(44)} p50 ${figures.p50Ms.toFixed(1).padStart(6)} ms   p99 ${figures.p99Ms.toFixed(1).padStart(6)} ms   ${(figures.bytes / 1024).toFixed(1).padStart(6)} KB${ratio}${over}`;
};

/**
 * Each console page over a sandbox of `CONSOLE_SUBSCRIPTIONS` subscriptions on the embedded store,
 * served by the compiled service in its own process: its latency over `BENCH_CONSOLE_REQUESTS`
 * sequential GETs (after a warm-up) and its whole transfer, beside the sign-in page, which reads
 * nothing (the baseline: what rendering and the console's middleware cost alone).
 */
export const consoleBench = async (write: (line: string) => void): Promise<boolean> => {
  // A second apart, as creations are, rather than every copy at the template's instant.
  const { dataDir, organisationId: org } = await buildSubscriptionLog({ subscriptions: CONSOLE_SUBSCRIPTIONS }, 1000);
  const service = await startService(dataDir);
  try {
    await caughtUp(service.url, write);
    const cookie = await signIn(service.url);
    const middle = Math.floor(CONSOLE_SUBSCRIPTIONS / 2);
    const base = `/console/organisations/${org}`;
    const asOf = new Date().toISOString().slice(0, 16);
    const pages: [string, string][] = [
      ['organisations', '/console/organisations'],
      ['organisation', base],
      ['customers', `${base}/customers`],
      ['customers by code', `${base}/customers?code=TEMPLATE`],
      ['subscriptions', `${base}/subscriptions`],
      ['subscriptions by status, page 2', `${base}/subscriptions?status=active&starting_after=sub_bench${middle}`],
      ['subscription (History)', `${base}/subscriptions/sub_bench${middle}`],
      ['subscription as of', `${base}/subscriptions/sub_bench${middle}?as_of=${asOf}`],
      ['invoices', `${base}/invoices`],
      ['invoice', `${base}/invoices/inv_bench${middle}`],
      ['credit notes', `${base}/credit-notes`],
      ['customer', `${base}/customers/cus_bench${middle}`],
      ['catalogue', `${base}/catalogue`],
      ['webhooks', `${base}/webhooks`],
      ['API keys', `${base}/api-keys`],
      ['accounting', `${base}/accounting`],
      ['revenue (reports, chart)', `${base}/revenue`],
      ['projections', '/console/projections'],
      ['workers', '/console/workers'],
    ];
    write(`console: each page over ${CONSOLE_SUBSCRIPTIONS} subscriptions (embedded store), ${REQUESTS} GETs one after another after ${WARMUP} not counted; transfer = HTML + scripts + styles`);
    const measure = async (label: string, path: string, headers: string): Promise<PageFigures> => {
      await timeGets(service.url, headers, path, WARMUP);
      return { label, ...(await timeGets(service.url, headers, path, REQUESTS)), bytes: await transfer(service.url, headers, path) };
    };
    const baseline = await measure('baseline: sign-in page (reads nothing)', '/console/sign-in', '');
    write(formatPage(baseline, null));
    let within = true;
    for (const [label, path] of pages) {
      const figures = await measure(label, path, cookie);
      within &&= figures.p99Ms < BOUND_MS && figures.bytes < BOUND_BYTES;
      write(formatPage(figures, baseline));
    }
    write(within ? `every page within ${BOUND_MS} ms (p99) and ${BOUND_BYTES / 1024} KB` : `some page over ${BOUND_MS} ms (p99) or ${BOUND_BYTES / 1024} KB`);
    return true;
  } finally {
    await service.stop();
  }
};
