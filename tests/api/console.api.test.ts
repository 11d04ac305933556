import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ADMIN_TOKEN, startTestService, tempDir, type TestService } from '../support/test-service';

/**
 * The console's rules over HTTP, as a browser would meet them (the browser suite drives the pages
 * themselves): these run on every machine, with or without Chromium.
 */
describe('the console’s session, CSRF, origin, header and escaping rules', () => {
  let service: TestService;
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    service = await startTestService(tempDir('console'));
    server = service.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await service.close();
  });

  const csrfOf = (html: string): string => /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
  /** A browser of its own: its cookie jar, and the CSRF token of the last page it was shown. */
  const browser = () => {
    const agent = request.agent(origin);
    let token = '';
    const get = async (path: string) => {
      const response = await agent.get(path);
      if (response.type === 'text/html' && response.text.includes('_csrf')) token = csrfOf(response.text);
      return response;
    };
    const post = (path: string, form: Record<string, string>, headers: Record<string, string> = { Origin: origin }) =>
      agent.post(path).set(headers).type('form').send({ _csrf: token, ...form });
    const signIn = async (adminToken = ADMIN_TOKEN) => {
      await get('/console/sign-in');
      return post('/console/sign-in', { token: adminToken });
    };
    return { agent, get, post, signIn, token: () => token };
  };
  const organisationCount = async () => (await request(service.app).get('/admin/v1/organisations?limit=100').set(service.admin)).body.data.length as number;

  it('serves its pages with the contract’s headers and a session cookie for /console alone', async () => {
    const response = await request(origin).get('/console/sign-in');
    expect(response.status).toBe(200);
    expect(response.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(response.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(response.headers['content-security-policy']).not.toMatch(/unsafe-inline/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['cache-control']).toBe('no-store');
    const cookie = response.headers['set-cookie']![0]!;
    expect(cookie).toMatch(/^console_session=/);
    expect(cookie).toMatch(/; Path=\/console;/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    // The form's session lives 15 minutes; a signed-in one 8 hours, renewed by every answer.
    const hoursLeft = (setCookie: string) => (Date.parse(/Expires=([^;]+)/.exec(setCookie)![1]!) - Date.now()) / 3_600_000;
    expect(Math.round(hoursLeft(cookie) * 60)).toBe(15);
    const reader = browser();
    const signedIn = await reader.signIn();
    expect(Math.round(hoursLeft(signedIn.headers['set-cookie']![0]!))).toBe(8);
    expect(Math.round(hoursLeft((await reader.get('/console/organisations')).headers['set-cookie']![0]!))).toBe(8);
    expect(response.text).toContain('<label for="token">Admin token</label>');
    expect(response.text).toContain('type="password"');
  });

  it('refuses a wrong token with an alert, echoing nothing typed, and exchanges the right one for a new session', async () => {
    const reader = browser();
    const wrong = await reader.signIn('wrong-token-typed-here');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toMatch(/role="alert"[^>]*>Invalid admin token/);
    expect(wrong.text).not.toContain('wrong-token-typed-here');
    expect(wrong.text).not.toContain('Sign out');
    const before = (await reader.get('/console/sign-in')).headers['set-cookie'];
    const signedIn = await reader.post('/console/sign-in', { token: ADMIN_TOKEN });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe('/console/organisations');
    // A new session id once signed in: one planted before is worth nothing.
    expect(signedIn.headers['set-cookie']![0]!.split(';')[0]).not.toBe((before ?? [''])[0]!.split(';')[0]);
    const page = await reader.get('/console/organisations');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(ADMIN_TOKEN);
  });

  it('sends a reader without a session to sign in, and refuses a write without one', async () => {
    const page = await request(origin).get('/console/organisations');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/console/sign-in');
    const before = await organisationCount();
    const write = await request(origin).post('/console/organisations').set({ Origin: origin }).type('form').send({ name: 'Anonymous', timezone: 'Europe/London', default_currency: 'GBP' });
    expect(write.status).toBe(403);
    expect(await organisationCount()).toBe(before);
  });

  it('refuses a write without the session’s CSRF token, from another origin or none, and changes nothing', async () => {
    const reader = browser();
    await reader.signIn();
    await reader.get('/console/organisations');
    const before = await organisationCount();
    const form = { name: 'Forged', timezone: 'Europe/London', default_currency: 'GBP' };
    const refusals = [
      await reader.agent.post('/console/organisations').set({ Origin: origin }).type('form').send(form),
      await reader.post('/console/organisations', { ...form, _csrf: 'f'.repeat(reader.token().length) }),
      await reader.post('/console/organisations', form, { Origin: 'http://evil.example' }),
      await reader.post('/console/organisations', form, {}),
    ];
    expect(refusals.map((response) => response.status)).toEqual([403, 403, 403, 403]);
    expect(refusals[2]!.text).toContain('http://evil.example');
    expect(await organisationCount()).toBe(before);
    // Another session's token is not this one's.
    const other = browser();
    await other.signIn();
    await other.get('/console/organisations');
    expect((await reader.post('/console/organisations', { ...form, _csrf: other.token() })).status).toBe(403);
    expect(await organisationCount()).toBe(before);
    const created = await reader.post('/console/organisations', form);
    expect(created.status).toBe(303);
    expect(await organisationCount()).toBe(before + 1);
  });

  it('records the console session, not the admin token, as the actor of its commands', async () => {
    const reader = browser();
    await reader.signIn();
    await reader.get('/console/organisations');
    const created = await reader.post('/console/organisations', { name: 'Actor Ltd', timezone: 'Europe/London', default_currency: 'GBP' });
    const id = /organisations\/(org_\w+)/.exec(created.headers.location as string)![1]!;
    const events = await request(service.app).get(`/admin/v1/organisations/${id}/streams/${id}/events`).set(service.admin);
    expect(events.body.data[0].metadata.actor).toEqual({ type: 'console', session: expect.stringMatching(/^cs_\w+$/) });
  });

  it('renders what was typed as text, and a missing object as a 404 page with a link back', async () => {
    const reader = browser();
    await reader.signIn();
    await reader.get('/console/organisations');
    const created = await reader.post('/console/organisations', { name: '<script>alert(1)</script>', timezone: 'Europe/London', default_currency: 'GBP' });
    const page = await reader.get(created.headers.location as string);
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).not.toContain('<script>alert(1)</script>');
    const missing = await reader.get(`${created.headers.location as string}/subscriptions/sub_missing`);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<h1>Not found</h1>');
    expect(missing.text).toContain(`href="${created.headers.location as string}"`);
  });

  it('ends the session on the server at sign-out', async () => {
    const reader = browser();
    const cookie = (await reader.signIn()).headers['set-cookie']![0]!.split(';')[0]!;
    expect((await request(origin).get('/console/organisations').set('Cookie', cookie)).status).toBe(200);
    await reader.get('/console/organisations');
    expect((await reader.post('/console/sign-out', {})).status).toBe(303);
    const replayed = await request(origin).get('/console/organisations').set('Cookie', cookie);
    expect(replayed.status).toBe(303);
    expect(replayed.headers.location).toBe('/console/sign-in');
  });

  it('limits sign-in attempts to 10 a minute from one address', async () => {
    const reader = browser();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await reader.signIn(`wrong-${i}`)).status);
    // The earlier tests' sign-ins count in the same minute: the limit is reached by the end.
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(10);
  });
});
