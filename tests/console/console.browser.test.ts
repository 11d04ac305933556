import { join } from 'node:path';
import { DateTime } from 'luxon';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { startDemoAccountingServer } from '../../demo/start';
import { describeInBrowser, launchBrowser, screenshotDir, seriousViolations } from '../support/browser';
import { serviceClient } from '../support/service-client';
import { ensureBuilt, type ServiceProcess, startServiceProcess } from '../support/service-process';
import { tempDir } from '../support/test-service';
import { until } from '../support/until';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

const ADMIN_TOKEN = 'console-admin-token-0123456789abcdef';

describeInBrowser('the console in a real browser, against the service as npm start runs it', () => {
  jest.setTimeout(60_000);
  let service: ServiceProcess;
  let accounting: Awaited<ReturnType<typeof startDemoAccountingServer>>;
  let receiver: Receiver;
  let context: BrowserContext;
  let page: Page;
  let url: string;
  let sandboxKey: string;
  let liveId: string;
  let sandboxId: string;
  /** Every URL the browser asked for, and every page's HTML it was shown. */
  const requested: string[] = [];
  const shown: string[] = [];

  const call = serviceClient(() => url, ADMIN_TOKEN);
  /** A call with the quick start's sandbox key (a creation with an Idempotency-Key of its own). */
  const api = (method: string, path: string, body?: object, auth = `Bearer ${sandboxKey}`) =>
    call(method, path, body, auth, method === 'POST' && path === '/v1/subscriptions' ? `console-${Math.random()}` : undefined);
  const admin = (method: string, path: string, body?: object) => call(method, path, body);
  const sandboxPath = (rest = '') => `/console/organisations/${sandboxId}${rest}`;

  /** Opens a console page, checks it with axe-core and keeps a screenshot of it. */
  const visit = async (path: string, name: string, status = 200): Promise<Response> => {
    const response = (await page.goto(`${url}${path}`))!;
    expect(response.status()).toBe(status);
    await checked(name);
    return response;
  };
  const checked = async (name: string) => {
    shown.push(await page.content());
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(screenshotDir(), `${name}.png`), fullPage: true });
  };
  const signIn = async () => {
    await page.goto(`${url}/console`);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Organisations' }).waitFor();
  };
  const createSubscription = async (body: Record<string, unknown>) => {
    const created = await api('POST', '/v1/subscriptions', body);
    expect(created.status).toBe(201);
    return created.body as { id: string; invoice: { id: string } };
  };

  beforeAll(async () => {
    ensureBuilt();
    const dataDir = tempDir('console');
    accounting = await startDemoAccountingServer({ port: 0, dbPath: join(dataDir, 'ledger.sqlite') });
    receiver = await startReceiver();
    service = await startServiceProcess({ DATA_DIR: dataDir, ADMIN_TOKEN, ACCOUNTING_URL: accounting.url, WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1' });
    url = service.url;
    sandboxKey = (await service.printed(/Sandbox API key with every scope \(shown once\):\s+(\S+)/))[1]!;
    const organisations = await admin('GET', '/admin/v1/organisations?livemode=true');
    liveId = organisations.body.data[0].id;
    sandboxId = organisations.body.data[0].sandbox;
    context = await launchBrowser();
    context.on('request', (request) => requested.push(request.url()));
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await service?.stop();
    await receiver?.close();
    await accounting?.close();
  });

  it('prints the console’s address beside the quick start', async () => {
    await service.printed(/Console: http:\/\/127\.0\.0\.1:\d+\/console/);
  });

  it('refuses a wrong admin token with an alert and nothing else of the console, then signs in', async () => {
    await visit('/console', 'sign-in');
    await page.getByLabel('Admin token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Invalid admin token');
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    expect(await page.getByRole('navigation').count()).toBe(0);
    await checked('sign-in-refused');
    await signIn();
    const [cookie] = (await context.cookies()).filter((c) => c.name === 'console_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });
    const hoursLeft = (cookie!.expires * 1000 - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(7.9);
    expect(hoursLeft).toBeLessThanOrEqual(8.01);
  });

  it('lists the live organisations and creates one, a refusal said beside the form with what was typed kept', async () => {
    await visit('/console/organisations', 'organisations');
    await expect(page.getByRole('link', { name: 'Demo Organisation' }).count()).resolves.toBe(1);
    await page.getByLabel('Name').fill('Globex Ltd');
    await page.getByLabel('Timezone').fill('Mars/Olympus');
    await page.getByLabel('Default currency').fill('EUR');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    const refusal = await admin('POST', '/admin/v1/organisations', { name: 'Globex Ltd', timezone: 'Mars/Olympus', default_currency: 'EUR' });
    await expect(page.getByRole('alert').textContent()).resolves.toBe(refusal.body.error.message);
    await expect(page.getByLabel('Timezone').inputValue()).resolves.toBe('Mars/Olympus');
    await expect(page.getByLabel('Name').inputValue()).resolves.toBe('Globex Ltd');
    await checked('organisations-refused');
    await page.getByLabel('Timezone').fill('Europe/Berlin');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByRole('heading', { name: 'Globex Ltd' }).waitFor();
    const created = (await admin('GET', '/admin/v1/organisations?livemode=true')).body.data[0];
    expect(created).toMatchObject({ name: 'Globex Ltd', timezone: 'Europe/Berlin', default_currency: 'EUR' });
    const history = await admin('GET', `/admin/v1/organisations/${created.id}/streams/${created.id}/events`);
    expect(history.body.data[0].metadata.actor).toEqual({ type: 'console', session: expect.stringMatching(/^cs_/) });

    // Its accounting connection, made and undone, and its sandbox opened.
    await page.getByRole('link', { name: 'Accounting', exact: true }).click();
    await checked('accounting-disconnected');
    await page.getByRole('button', { name: 'Connect accounting' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toBe('Connected to the accounting system.');
    expect((await admin('GET', `/admin/v1/organisations/${created.id}`)).body.accounting.connected).toBe(true);
    await page.getByRole('button', { name: 'Disconnect accounting' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toBe('Disconnected from the accounting system.');
    expect((await admin('GET', `/admin/v1/organisations/${created.id}`)).body.accounting.connected).toBe(false);
    await page.getByRole('link', { name: 'Sandbox', exact: true }).click();
    await checked('open-sandbox');
    await page.getByRole('button', { name: 'Open sandbox' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Sandbox opened');
    await expect(page.locator('.mark').allTextContents()).resolves.toEqual(['Sandbox', 'Test data']);
    expect((await admin('GET', `/admin/v1/organisations/${created.id}`)).body.sandbox).toMatch(/^org_/);
  });

  it('shows an organisation with links to each of its pages, and its sandbox marked as test data', async () => {
    await visit(`/console/organisations/${liveId}`, 'organisation');
    await page.getByRole('heading', { name: 'Demo Organisation' }).waitFor();
    for (const name of ['Customers', 'Subscriptions', 'Invoices', 'Credit notes', 'Catalogue', 'Webhooks', 'API keys', 'Accounting', 'Revenue', 'Sandbox']) {
      expect(await page.getByRole('link', { name, exact: true }).count()).toBe(1);
    }
    await page.getByRole('link', { name: 'Sandbox', exact: true }).click();
    await page.waitForURL(`${url}${sandboxPath()}`);
    await checked('sandbox');
    await expect(page.locator('.mark').allTextContents()).resolves.toEqual(['Sandbox', 'Test data']);
    for (const [path, name] of [['/catalogue', 'catalogue'], ['/accounting', 'accounting'], ['/customers', 'customers'], ['/credit-notes', 'credit-notes']] as const) {
      await visit(sandboxPath(path), name);
      await expect(page.locator('.mark').count()).resolves.toBe(2);
    }
    await expect(page.getByRole('heading', { name: 'Credit notes' }).count()).resolves.toBe(1);
  });

  it('pages and filters a list as its /v1 list does', async () => {
    const created: string[] = [];
    for (let i = 0; i < 3; i++) created.push((await createSubscription({ customer_code: 'ACME', plan_code: 'team', units: 2 + i })).id);
    await api('POST', `/v1/subscriptions/${created[0]}/end`, { when: 'now' });
    await visit(sandboxPath('/subscriptions?limit=2'), 'subscriptions');
    const firstPage = await page.locator('tbody tr a').allTextContents();
    expect(firstPage).toEqual([created[2], created[1]]);
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/starting_after=/);
    expect(await page.locator('tbody tr a').allTextContents()).toEqual([created[0]]);
    await page.getByRole('link', { name: 'Previous page' }).click();
    await page.waitForURL((address) => !address.search.includes('starting_after'));
    expect(await page.locator('tbody tr a').allTextContents()).toEqual(firstPage);
    await visit(sandboxPath('/subscriptions'), 'subscriptions-filtered');
    await page.getByLabel('Status').fill('ended');
    await page.getByLabel('Customer code').fill('ACME');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=ended/);
    expect(await page.locator('tbody tr a').allTextContents()).toEqual([created[0]]);
    await page.getByLabel('Status').fill('paused');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=paused/);
    const refused = await api('GET', '/v1/subscriptions?status=paused');
    await expect(page.getByRole('alert').textContent()).resolves.toBe(refused.body.error.message);
  });

  it('shows a subscription with its documents and History, as of a past instant, and runs its lifecycle commands', async () => {
    const subscription = await createSubscription({ customer_code: 'ACME', plan_code: 'team', units: 3, invoice_reference: 'PO-1' });
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await visit(sandboxPath(`/subscriptions/${subscription.id}`), 'subscription');
    await expect(page.locator(`main a[href$="/invoices/${subscription.invoice.id}"]`).count()).resolves.toBe(1);

    // Refused: the API's own message beside the form, and the value typed still there.
    await page.getByLabel('New units').fill('-1');
    await page.getByRole('button', { name: 'Change units' }).click();
    const refusal = await api('POST', `/v1/subscriptions/${subscription.id}/units`, { units: -1 });
    await expect(page.getByRole('alert').textContent()).resolves.toBe(refusal.body.error.message);
    await expect(page.getByLabel('New units').inputValue()).resolves.toBe('-1');
    await checked('subscription-refused');

    await page.getByLabel('New units').fill('7');
    await page.getByRole('button', { name: 'Change units' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Units changed from 3 to 7');
    await page.getByRole('heading', { name: 'History' }).waitFor();
    const rows = page.getByRole('region', { name: 'History' }).locator('tbody tr');
    const types = await rows.locator('td:nth-child(2)').allTextContents();
    expect(types[0]).toBe('SubscriptionCreated');
    expect(types).toContain('SubscriptionUnitsChanged');
    const last = rows.filter({ hasText: 'SubscriptionUnitsChanged' });
    await expect(last.locator('td:nth-child(5)').textContent()).resolves.toMatch(/^console session cs_/);
    const events = (await admin('GET', `/admin/v1/organisations/${sandboxId}/streams/${subscription.id}/events`)).body.data;
    expect(events.find((e: { type: string }) => e.type === 'SubscriptionUnitsChanged').metadata.actor).toEqual({ type: 'console', session: expect.stringMatching(/^cs_/) });

    // As of one second after the creation was recorded (in the organisation's timezone): 3 units then.
    const createdAt = DateTime.fromISO(events[0].metadata.recorded_at as string).setZone('Europe/London').plus({ seconds: 1 });
    const typed = createdAt.toFormat("yyyy-MM-dd'T'HH:mm:ss");
    await page.getByLabel('As of').fill(typed);
    await page.getByRole('button', { name: 'Show as of' }).click();
    const heading = page.getByRole('heading', { name: `As of ${typed.replace('T', ' ')} Europe/London` });
    await heading.waitFor();
    const asOf = page.locator('dl.as-of');
    await expect(asOf.locator('dt:text-is("Units") + dd').textContent()).resolves.toBe('3');
    await expect(asOf.locator('dt:text-is("Status") + dd').textContent()).resolves.toBe('active');
    const then = await admin('GET', `/admin/v1/organisations/${sandboxId}/subscriptions/${subscription.id}?as_of=${encodeURIComponent(createdAt.toISO()!)}`);
    await expect(asOf.locator('dt:text-is("Renewal value") + dd').textContent()).resolves.toBe(`${then.body.renewal_value} GBP`);
    await checked('subscription-as-of');
    await page.screenshot({ path: join(screenshotDir(), 'subscription-page.png') });

    await page.getByLabel('When').selectOption('period_end');
    await page.getByRole('button', { name: 'End subscription' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('set to end at its renewal date');
    expect((await api('GET', `/v1/subscriptions/${subscription.id}`)).body.cancel_at_period_end).toBe(true);
    await page.getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('restored');
    expect((await api('GET', `/v1/subscriptions/${subscription.id}`)).body.cancel_at_period_end).toBe(false);
  });

  it('shows an invoice’s lines and sync status, and retries a refused push', async () => {
    const tenant = (await admin('GET', `/admin/v1/organisations/${sandboxId}`)).body.accounting.tenant_id as string;
    await fetch(`${accounting.url}/control/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'refuse', pathPrefix: `/tenants/${tenant}/invoices`, method: 'POST', count: 1, status: 400, code: 'validation_failed', message: 'Locked period' }),
    });
    const { invoice } = await createSubscription({ customer_code: 'ACME', plan_code: 'starter' });
    await until('the push is refused', async () => (await api('GET', `/v1/invoices/${invoice.id}`)).body.accounting.sync_status === 'failed');
    await visit(sandboxPath(`/invoices/${invoice.id}`), 'invoice-failed');
    await expect(page.locator('dt:text-is("Accounting sync") + dd').textContent()).resolves.toContain('failed: ');
    const lines = await page.getByRole('region', { name: 'Lines' }).locator('thead th').allTextContents();
    expect(lines.slice(0, 5)).toEqual(['Type', 'Description', 'Units', 'Amount', 'Revenue type']);
    await page.getByRole('button', { name: 'Retry sync' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Sync retry requested');
    await until('the retried push lands', async () => (await api('GET', `/v1/invoices/${invoice.id}`)).body.accounting.sync_status === 'synced');
    await visit(sandboxPath(`/invoices/${invoice.id}`), 'invoice-synced');
    expect(await page.getByRole('button', { name: 'Retry sync' }).count()).toBe(0);
  });

  it('advances the sandbox clock and traces a usage line to the events it billed', async () => {
    const subscription = await createSubscription({ customer_code: 'ACME', plan_code: 'api' });
    const reported = await api('POST', '/v1/usage_events', {
      events: [
        { event_id: 'trace-1', subscription: subscription.id, meter_code: 'api_calls', quantity: 1500 },
        { event_id: 'trace-2', subscription: subscription.id, meter_code: 'api_calls', quantity: '250.5' },
      ],
    });
    expect(reported.status).toBe(200);
    const start = (await api('GET', `/v1/subscriptions/${subscription.id}`)).body.start_date as string;
    const past = DateTime.fromISO(start).plus({ months: 1, days: 3 }).toISODate()!;
    await visit(sandboxPath(), 'sandbox-before-advance');
    await page.getByLabel('Advance to').fill(past);
    await page.getByRole('button', { name: 'Advance clock' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toMatch(/Clock advanced to .*: [1-9]\d* invoices? raised/);
    const invoices = (await api('GET', `/v1/invoices?subscription=${subscription.id}`)).body.data as { id: string; lines: { id: string; type: string }[] }[];
    const usage = invoices.find((invoice) => invoice.lines.some((line) => line.type === 'usage'))!;
    await visit(sandboxPath(`/invoices/${usage.id}`), 'invoice-usage');
    await page.getByRole('link', { name: 'Usage events' }).click();
    await page.getByRole('heading', { name: 'Usage events' }).waitFor();
    await checked('usage-events');
    const rows = await Promise.all((await page.locator('tbody tr').all()).map((tr) => tr.locator('td').allTextContents()));
    expect(rows.map((row) => [row[0], row[2]])).toEqual([
      ['trace-1', '1500.0000'],
      ['trace-2', '250.5000'],
    ]);
  });

  it('shows the MRR and invoiced revenue reports as tables, a chart and CSV downloads', async () => {
    await visit(sandboxPath('/revenue'), 'revenue');
    const [from, to] = [await page.getByLabel('From').inputValue(), await page.getByLabel('To').inputValue()];
    expect(to >= from).toBe(true);
    const mrr = await admin('GET', `/admin/v1/organisations/${sandboxId}/reports/mrr?from=${from}&to=${to}`);
    expect(mrr.body.data.length).toBeGreaterThan(0);
    const table = page.getByRole('table', { name: 'MRR by month and currency' }).locator('tbody tr');
    expect(await table.count()).toBe(mrr.body.data.length);
    const last = mrr.body.data.at(-1);
    await expect(table.last().locator('td').allTextContents()).resolves.toEqual([
      last.month, last.currency, last.opening_mrr, last.new, last.expansion, last.contraction, last.churn, last.reactivation, last.closing_mrr, last.arr, String(last.active_subscriptions),
    ]);
    const currencies = [...new Set(mrr.body.data.map((row: { currency: string }) => row.currency))];
    await page.locator('.revenue-chart canvas').first().waitFor();
    await expect(page.getByRole('img', { name: /^MRR by month in / }).evaluateAll((charts) => charts.map((chart) => /^MRR by month in (\w+),/.exec(chart.getAttribute('aria-label'))?.[1]))).resolves.toEqual(currencies);
    expect(await page.locator('.revenue-chart canvas').count()).toBe(currencies.length);
    const revenue = await admin('GET', `/admin/v1/organisations/${sandboxId}/reports/revenue?from=${from}&to=${to}`);
    expect(await page.getByRole('table', { name: 'Invoiced revenue by month and currency' }).locator('tbody tr').count()).toBe(revenue.body.data.length);
    for (const [region, kind] of [['MRR', 'mrr'], ['Invoiced revenue', 'revenue']] as const) {
      const href = (await page.getByRole('region', { name: region, exact: true }).getByRole('link', { name: 'Download CSV' }).getAttribute('href'))!;
      const csv = await page.request.get(`${url}${href}`);
      expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
      const fromApi = await fetch(`${url}/admin/v1/organisations/${sandboxId}/reports/${kind}?from=${from}&to=${to}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, Accept: 'text/csv' } });
      expect(await csv.text()).toBe(await fromApi.text());
    }
    await page.getByLabel('From').fill('2026-13');
    await page.getByRole('button', { name: 'Show reports' }).click();
    const refused = await admin('GET', `/admin/v1/organisations/${sandboxId}/reports/mrr?from=2026-13&to=${to}`);
    await expect(page.getByRole('alert').textContent()).resolves.toBe(refused.body.error.message);
    await expect(page.getByLabel('From').inputValue()).resolves.toBe('2026-13');
  });

  it('creates a webhook endpoint, sends it a test event, rolls its secret and disables it', async () => {
    await visit(sandboxPath('/webhooks'), 'webhooks-empty');
    await page.getByLabel('URL').fill(receiver.url('/hook'));
    await page.getByLabel('Description').fill('Receiver');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = await page.locator('.secret code.reveal').textContent();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('webhook.test event is queued');
    await until('the test event arrives', () => receiver.received.some((r) => r.body.type === 'webhook.test'));
    await until('its delivery is shown', async () => {
      await page.reload();
      return (await page.locator('tbody tr').filter({ hasText: 'webhook.test' }).filter({ hasText: 'succeeded' }).count()) === 1;
    });
    const delivery = await page.locator('tbody tr').filter({ hasText: 'webhook.test' }).locator('td').allTextContents();
    expect(delivery.slice(0, 4)).toEqual(['webhook.test', 'succeeded', '1', '200']);
    await checked('webhooks');
    await page.getByRole('button', { name: 'Roll secret' }).click();
    const rolled = await page.locator('.secret code.reveal').textContent();
    expect(rolled).toMatch(/^whsec_/);
    expect(rolled).not.toBe(secret);
    await page.getByRole('button', { name: 'Disable' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('disabled');
    expect((await admin('GET', `/admin/v1/organisations/${sandboxId}/webhook_endpoints`)).body.data[0].status).toBe('disabled');
    await page.getByRole('button', { name: 'Enable' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('enabled');
    expect((await admin('GET', `/admin/v1/organisations/${sandboxId}/webhook_endpoints`)).body.data[0].status).toBe('enabled');
  });

  it('creates an API key, shown once on that page only, and revokes it', async () => {
    await visit(sandboxPath('/api-keys'), 'api-keys');
    await page.getByLabel('Name').fill('Console key');
    await page.getByLabel('customers:read').check();
    await page.getByRole('button', { name: 'Create API key' }).click();
    const key = (await page.locator('.secret code.reveal').textContent())!;
    expect((await api('GET', '/v1/customers', undefined, `Bearer ${key}`)).status).toBe(200);
    await checked('api-key-created');
    await page.goto(`${url}${sandboxPath('/api-keys')}`);
    expect(await page.content()).not.toContain(key);
    const row = page.locator('tbody tr').filter({ hasText: 'Console key' });
    await expect(row.locator('td').allTextContents()).resolves.toEqual(expect.arrayContaining(['Console key', 'test', 'customers:read', 'never', 'no']));
    await row.getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Console key revoked');
    await expect(page.locator('tbody tr').filter({ hasText: 'Console key' }).locator('td:nth-child(5)').textContent()).resolves.toBe('yes');
    expect((await api('GET', '/v1/customers', undefined, `Bearer ${key}`)).status).toBe(401);
  });

  it('renders what users typed as text, never as markup', async () => {
    const hostile = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">';
    const customer = await api('POST', '/v1/customers', { code: 'XSS', name: hostile });
    expect(customer.status).toBe(201);
    const subscription = await createSubscription({ customer_code: 'XSS', plan_code: 'starter', invoice_reference: hostile });
    for (const [path, name] of [
      [`/customers/${customer.body.id as string}`, 'escaped-customer'],
      [`/subscriptions/${subscription.id}`, 'escaped-subscription'],
      [`/invoices/${subscription.invoice.id}`, 'escaped-invoice'],
      ['/invoices', 'escaped-invoices'],
    ] as const) {
      await visit(sandboxPath(path), name);
      expect(await page.evaluate('window.pwned')).toBeUndefined();
      expect(await page.locator('main img, main script').count()).toBe(0);
      expect(await page.locator('main').textContent()).toContain(hostile);
    }
  });

  it('answers a missing or foreign object with a 404 page linking back', async () => {
    const live = (await admin('GET', `/admin/v1/organisations/${liveId}`)).body;
    const sandboxSubscription = (await api('GET', '/v1/subscriptions?limit=1')).body.data[0].id as string;
    for (const path of [`/console/organisations/${liveId}/subscriptions/${sandboxSubscription}`, `/console/organisations/${liveId}/invoices/inv_missing`, '/console/organisations/org_missing']) {
      await visit(path, 'not-found', 404);
      await page.getByRole('heading', { name: 'Not found' }).waitFor();
      expect(await page.content()).not.toMatch(/at .*\.js:\d+/);
    }
    await visit(`/console/organisations/${liveId}/invoices/inv_missing`, 'not-found', 404);
    await page.getByRole('link', { name: 'Back to the organisation' }).click();
    await page.getByRole('heading', { name: String(live.name) }).waitFor();
  });

  it('shows the workers, and the projections', async () => {
    await visit('/console/workers', 'workers');
    await page.getByRole('heading', { name: 'Workers' }).waitFor();
    const queues = await page.getByRole('table').nth(1).locator('tbody tr td:first-child').allTextContents();
    expect(queues.length).toBeGreaterThan(0);
    expect(await page.getByRole('table').nth(1).getByRole('columnheader').allTextContents()).toEqual(['Queue', 'Waiting', 'Delayed', 'Active', 'Oldest job age', 'Failures', 'Oldest failure']);
    await visit('/console/projections', 'projections');
    const statuses = await page.locator('#projections tbody td[data-field="status"]').allTextContents();
    expect(statuses.length).toBeGreaterThan(5);
    expect(new Set(statuses)).toEqual(new Set(['live']));
  });

  it('resets the sandbox once its name is typed, saying what it removed', async () => {
    await visit(sandboxPath(), 'sandbox-reset');
    await page.getByLabel('Type the sandbox').fill('Not the name');
    await page.getByRole('button', { name: 'Reset sandbox' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('to confirm the reset');
    await expect(page.getByLabel('Type the sandbox').inputValue()).resolves.toBe('Not the name');
    const before = (await api('GET', '/v1/subscriptions?limit=100')).body.data.length as number;
    expect(before).toBeGreaterThan(0);
    await page.getByLabel('Type the sandbox').fill('Demo Organisation');
    await page.getByRole('button', { name: 'Reset sandbox' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain(`Sandbox reset: removed ${before} subscriptions`);
    expect((await api('GET', '/v1/subscriptions')).body.data).toEqual([]);
  });

  it('works with the keyboard alone', async () => {
    await page.goto(`${url}/console/organisations/${liveId}`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate('document.activeElement.textContent')) === 'Invoices') break;
    }
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/invoices$/);
    await page.getByRole('heading', { name: 'Invoices' }).waitFor();
  });

  it('refuses a write without the session’s CSRF token, or from another origin, and changes nothing', async () => {
    await page.goto(`${url}/console/organisations`);
    const cookie = (await context.cookies()).find((c) => c.name === 'console_session')!;
    const token = await page.locator('input[name="_csrf"]').first().inputValue();
    const before = (await admin('GET', '/admin/v1/organisations?limit=100')).body.data.length;
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${url}/console/organisations`, { method: 'POST', redirect: 'manual', headers: { Cookie: `console_session=${cookie.value}`, 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body });
    const form = 'name=Forged&timezone=Europe%2FLondon&default_currency=GBP';
    expect((await post({ Origin: url }, form)).status).toBe(403);
    expect((await post({ Origin: url }, `${form}&_csrf=${'0'.repeat(token.length)}`)).status).toBe(403);
    expect((await post({ Origin: 'http://evil.example' }, `${form}&_csrf=${token}`)).status).toBe(403);
    expect((await post({}, `${form}&_csrf=${token}`)).status).toBe(403);
    // From the page itself, without the token: the browser sends the console's Origin, the token is what is missing.
    expect(await page.evaluate(async (body) => (await fetch('/console/organisations', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body })).status, form)).toBe(403);
    expect((await admin('GET', '/admin/v1/organisations?limit=100')).body.data.length).toBe(before);
    // The same token, from the console's own origin, is taken.
    expect((await post({ Origin: url }, `${form}&_csrf=${token}`)).status).toBe(303);
  });

  it('sends the headers of the contract, and asks no other host for anything', async () => {
    const response = await page.goto(`${url}/console/organisations`);
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('same-origin');
    expect(requested.filter((address) => !address.startsWith(url))).toEqual([]);
  });

  it('never puts the admin token in a URL, storage or page, and ends the session on the server at sign-out', async () => {
    expect(requested.filter((address) => address.includes(ADMIN_TOKEN))).toEqual([]);
    expect(shown.filter((html) => html.includes(ADMIN_TOKEN))).toEqual([]);
    const storage = await page.evaluate<string>('JSON.stringify([{ ...localStorage }, { ...sessionStorage }])');
    expect(storage).not.toContain(ADMIN_TOKEN);
    const cookie = (await context.cookies()).find((c) => c.name === 'console_session')!;
    expect(cookie.value).not.toContain(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const replayed = await fetch(`${url}/console/organisations`, { redirect: 'manual', headers: { Cookie: `console_session=${cookie.value}` } });
    expect(replayed.status).toBe(303);
    expect(replayed.headers.get('location')).toBe('/console/sign-in');
  });

  it('limits sign-in attempts to 10 a minute from one address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      await page.goto(`${url}/console/sign-in`);
      await page.getByLabel('Admin token').fill(`wrong-${i}`);
      const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Sign in' }).click()]);
      statuses.push(response.status());
    }
    // Earlier sign-ins of this file count too: at most 10 in the minute are weighed.
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Too many sign-in attempts');
  });
});
