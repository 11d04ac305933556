import type { Express } from 'express';
import redoc from 'redoc/package.json';
import request from 'supertest';
import { createApp } from '../../api/app';
import { REFERENCES } from '../../api/reference';
import { apiDeps } from '../../service/services';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/test-service';

/** Every address an HTML page loads or links to: src, href and the renderer's spec-url. */
const addressesIn = (html: string): string[] => [...html.matchAll(/\s(?:src|href|spec-url)="([^"]*)"/g)].map((match) => match[1]!);

describe('the API reference at /docs', () => {
  let service: TestService;
  // The app itself: its pages are not API routes, so they are not held to a route's spec.
  let app: Express;
  beforeAll(async () => {
    service = await startTestService();
    app = createApp(apiDeps(service.services, ADMIN_TOKEN, null)).app;
  });
  afterAll(async () => {
    await service.close();
  });

  it.each(REFERENCES.map((reference) => [reference.path, reference.document]))(
    'serves %s without a key, rendering %s with the bundled renderer and nothing from another host',
    async (path, document) => {
      const page = await request(app).get(path);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.text).toContain(`<redoc spec-url="${document}"`);
      expect(page.text).toContain('<script src="/docs/redoc.standalone.js"></script>');
      const addresses = addressesIn(page.text);
      expect(addresses).toEqual(expect.arrayContaining(['/docs', '/docs/admin', '/docs/reference.css', '/docs/redoc.standalone.js', document]));
      expect(addresses.filter((address) => !/^(\/(?!\/)|data:)/.test(address))).toEqual([]);
      for (const address of addresses.filter((a) => a.startsWith('/'))) expect([address, (await request(app).get(address)).status]).toEqual([address, 200]);
    },
  );

  it('tells the browser to load nothing from another host, and no script but its own', async () => {
    const page = await request(app).get('/docs');
    const policy: Record<string, string[]> = Object.fromEntries(
      String(page.headers['content-security-policy'])
        .split('; ')
        .map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]),
    );
    expect(policy['default-src']).toEqual(["'none'"]);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    const sources = Object.values(policy).flat();
    expect(sources.filter((source) => !["'none'", "'self'", "'unsafe-inline'", 'data:', 'blob:'].includes(source))).toEqual([]);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves Redoc’s own bundle, with its one address on another host (its logo) taken out', async () => {
    const bundle = await request(app).get('/docs/redoc.standalone.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const text = bundle.text;
    expect(text).toContain(`"${redoc.version}"`);
    expect(text).not.toContain('cdn.redoc.ly');
    expect(text.length).toBeGreaterThan(1_000_000);
  });
});
