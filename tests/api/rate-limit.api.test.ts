import request from 'supertest';
import { fixedClock } from '../../infra/clock/clock';
import { expectError } from '../support/api-assertions';
import { createKey, createOrganisation } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';

describe('public API: rate limit', () => {
  const clock = fixedClock(new Date('2026-05-01T09:00:00.000Z'));
  let service: TestService;
  let organisationId: string;
  beforeAll(async () => {
    service = await startTestService(tempDir('ratelimit'), { clock });
    organisationId = (await createOrganisation(service)).id;
  });
  afterAll(async () => {
    await service.close();
  });

  const call = (auth: Record<string, string>) => request(service.app).get('/v1/organisation').set(auth);
  const headers = (response: request.Response) => ({
    limit: response.headers['ratelimit-limit'],
    remaining: response.headers['ratelimit-remaining'],
    reset: response.headers['ratelimit-reset'],
  });

  it('allows 120 requests in 60 s per key, counting down, then refuses the 121st with Retry-After', async () => {
    const { auth } = await createKey(service, organisationId, []);
    for (let i = 1; i <= 120; i++) {
      const response = await call(auth);
      expect(response.status).toBe(200);
      expect(headers(response)).toEqual({ limit: '120', remaining: String(120 - i), reset: i <= 60 ? '60' : '30' });
      if (i === 60) clock.advance(30_000);
    }
    const refused = await call(auth);
    expectError(refused, 429, 'rate_limit_error', 'rate_limited');
    // Half the window's requests were made 30 s ago: one more is allowed when the first of them expires.
    expect(refused.headers['retry-after']).toBe('30');
    expect(headers(refused)).toEqual({ limit: '120', remaining: '0', reset: '30' });

    clock.advance(30_000);
    // The first 60 requests have slid out; the 61st to 120th and the refused 121st still count.
    const later = await call(auth);
    expect(later.status).toBe(200);
    expect(headers(later)).toEqual({ limit: '120', remaining: String(120 - 62), reset: '30' });
    clock.advance(60_000);
  });

  it('counts refused requests too, so hammering stays refused', async () => {
    const { auth } = await createKey(service, organisationId, []);
    for (let i = 0; i < 120; i++) await call(auth);
    clock.advance(59_000);
    expect((await call(auth)).status).toBe(429);
    clock.advance(1_000);
    // The first 120 expired, but the 429 made a second ago still counts: 1 + this one.
    const next = await call(auth);
    expect(next.status).toBe(200);
    expect(next.headers['ratelimit-remaining']).toBe('118');
    clock.advance(60_000);
  });

  it('counts failed requests and keeps separate windows per key, not per organisation', async () => {
    const first = await createKey(service, organisationId, []);
    const second = await createKey(service, organisationId, []);
    const unknown = await request(service.app).get('/v1/unknown').set(first.auth);
    expect(unknown.status).toBe(404);
    expect(unknown.headers['ratelimit-remaining']).toBe('119');
    expect((await call(first.auth)).headers['ratelimit-remaining']).toBe('118');
    expect((await call(second.auth)).headers['ratelimit-remaining']).toBe('119');
    clock.advance(60_000);
  });

  it('counts an authenticated 400 invalid_json and 413 payload_too_large like any other request, with the headers', async () => {
    const { auth } = await createKey(service, organisationId, ['customers:write']);
    const raw = (text: string) => request(service.app).post('/v1/customers').set(auth).set('Content-Type', 'application/json').send(text);
    const malformed = await raw('{"code": "X",');
    expectError(malformed, 400, 'invalid_request_error', 'invalid_json');
    expect(headers(malformed)).toEqual({ limit: '120', remaining: '119', reset: '60' });
    const oversized = await raw(JSON.stringify({ code: 'BIG', name: 'x'.repeat(100_001) }));
    expectError(oversized, 413, 'invalid_request_error', 'payload_too_large');
    expect(headers(oversized)).toEqual({ limit: '120', remaining: '118', reset: '60' });
    expect((await call(auth)).headers['ratelimit-remaining']).toBe('117');
    clock.advance(60_000);
  });

  it('sends the headers on the OpenAPI document, which needs no key and counts nothing', async () => {
    const { auth } = await createKey(service, organisationId, []);
    const anonymous = await request(service.app).get('/v1/openapi.json');
    expect(anonymous.status).toBe(200);
    expect(headers(anonymous)).toEqual({ limit: '120', remaining: '120', reset: '0' });
    const withKey = await request(service.app).get('/v1/openapi.json').set(auth);
    expect(headers(withKey)).toEqual({ limit: '120', remaining: '120', reset: '0' });
    expect((await call(auth)).headers['ratelimit-remaining']).toBe('119');
    clock.advance(60_000);
  });

  it('sends the headers on answers to callers without a valid key, counting nothing', async () => {
    const response = await request(service.app).get('/v1/organisation');
    expect(response.status).toBe(401);
    expect(headers(response)).toEqual({ limit: '120', remaining: '120', reset: '0' });
  });
});
