import type { BrowserContext, Page } from 'playwright-core';
import { buildLog } from '../../bench/rebuild';
import { describeInBrowser, launchBrowser } from '../support/browser';
import { serviceClient } from '../support/service-client';
import { ensureBuilt, type ServiceProcess, startServiceProcess } from '../support/service-process';

const ADMIN_TOKEN = 'console-admin-token-0123456789abcdef';
/** Enough events that a rebuild outlasts a page load and a few polls on this machine. */
const LOG_EVENTS = 40_000;

describeInBrowser('a rebuild started and followed from the console', () => {
  jest.setTimeout(120_000);
  let service: ServiceProcess;
  let context: BrowserContext;
  let page: Page;
  const call = serviceClient(() => service.url, ADMIN_TOKEN);

  beforeAll(async () => {
    ensureBuilt();
    service = await startServiceProcess({ DATA_DIR: await buildLog(LOG_EVENTS), ADMIN_TOKEN });
    context = await launchBrowser();
    page = await context.newPage();
    await page.goto(`${service.url}/console/sign-in`);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Organisations' }).waitFor();
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await service?.stop();
  });

  it('asks first: declined, nothing starts', async () => {
    await page.goto(`${service.url}/console/projections`);
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: 'Rebuild' }).click();
    await page.waitForTimeout(300);
    expect((await call('GET', '/admin/v1/projections/rebuild')).status).toBe(404);
  });

  it('shows the rebuild’s progress, updating without a reload, until every projection is live again', async () => {
    await page.goto(`${service.url}/console/projections`);
    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.accept();
    });
    // The form's answer sends the browser back to the page: its load is the last one.
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Rebuild' }).click()]);
    expect(question).toMatch(/^Rebuild every read model/);
    let loads = 0;
    page.on('load', () => (loads += 1));
    const status = page.locator('#rebuild-status');
    const seen: string[] = [(await status.textContent())!];
    expect(seen[0]).toMatch(/^Rebuild running: \d+ of \d+ events$/);
    const statuses = page.locator('#projections td[data-field="status"]');
    expect(await statuses.allTextContents()).toContain('rebuilding');
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const text = (await status.textContent())!;
      if (text !== seen.at(-1)) seen.push(text);
      if (text.startsWith('Rebuild switched')) break;
      await page.waitForTimeout(50);
    }
    expect(seen.at(-1)).toMatch(/^Rebuild switched: \d+ of \d+ events$/);
    // Figures that grew, shown by the page's script: the page was never loaded again.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(loads).toBe(0);
    expect(new Set(await statuses.allTextContents())).toEqual(new Set(['live']));
    const rebuild = await call('GET', '/admin/v1/projections/rebuild');
    expect(rebuild.body).toMatchObject({ status: 'switched' });
  });
});
