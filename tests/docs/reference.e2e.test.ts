import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { createApp } from '../../api/app';
import { REFERENCES } from '../../api/reference';
import { apiDeps } from '../../service/services';
import { CHROMIUM, describeInBrowser } from '../support/browser';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/test-service';

describeInBrowser('the API reference in a headless browser', () => {
  let service: TestService;
  let server: Server;
  let origin: string;
  let browser: Browser;
  beforeAll(async () => {
    service = await startTestService();
    server = createServer(createApp(apiDeps(service.services, ADMIN_TOKEN, null)).app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await service.close();
  });

  it.each(REFERENCES.map((reference) => [reference.path, reference.document]))(
    '%s renders every operation of %s, and the page asks no other host for anything',
    async (path, document) => {
      const page = await browser.newPage();
      const requested: string[] = [];
      const problems: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${origin}${path}`);
      const operationIds = Object.values(((await (await fetch(`${origin}${document}`)).json()) as { paths: Record<string, Record<string, { operationId: string }>> }).paths)
        .flatMap((item) => Object.values(item).map((operation) => operation.operationId));
      await page.waitForSelector(`[data-section-id$="/operation/${operationIds.at(-1)!}"]`, { timeout: 20_000 });
      const rendered = await page.$$eval('[data-section-id*="/operation/"]', (sections) => sections.map((section) => section.getAttribute('data-section-id')!.replace(/.*\/operation\//, '')));
      expect(rendered.sort()).toEqual([...operationIds].sort());
      await page.close();
      // blob: is the renderer's search worker, made on the page; everything else is this service's.
      expect(requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith(`blob:${origin}/`))).toEqual([]);
      expect(requested).toEqual(expect.arrayContaining([`${origin}${document}`, `${origin}/docs/redoc.standalone.js`]));
      expect(problems).toEqual([]);
    },
    60_000,
  );
});
