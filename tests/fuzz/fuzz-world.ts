import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import fc from 'fast-check';
import request from 'supertest';
import { httpServer } from '../../api/http-server';
import { createKey } from '../support/fixtures';
import { hostileWorld, type HostileWorld } from '../support/hostile-world';
import { ADMIN_TOKEN } from '../support/test-service';
import type { Hints } from './schema-arbitrary';
import type { Credentials, FuzzRequest, OpenApiDocument, PathValues } from './requests';

export type FuzzWorld = HostileWorld &
  Readonly<{
    server: Server;
    url: string;
    credentials: Credentials;
    documents: readonly OpenApiDocument[];
    pathValues: PathValues;
    hints: Hints;
    /** Undoes what earlier operations did to the organisation's settings and accounting connection. */
    restore(): Promise<void>;
    close(): Promise<void>;
  }>;

const tiers = [
  { from_units: 1, to_units: 10, price: '5.00' },
  { from_units: 11, to_units: null, price: '4.00' },
];

/** The hostile world behind a real HTTP server, with a subscription and an invoice to point at, and what exists to draw values from. */
export const fuzzWorld = async (label: string): Promise<FuzzWorld> => {
  const world = await hostileWorld(label);
  const { app } = world.service;
  const subscription = await request(app)
    .post('/v1/subscriptions')
    .set(world.auth)
    .set('Idempotency-Key', 'fuzz-world')
    .send({ customer_code: 'C1', plan_code: 'seats', units: 5 });
  if (subscription.status !== 201) throw new Error(`subscription not created: ${JSON.stringify(subscription.body)}`);
  const other = await request(app).post('/admin/v1/organisations').set(world.service.admin).send({ name: 'Other Ltd', timezone: 'Asia/Tokyo', default_currency: 'JPY' });
  const spareKey = await createKey(world.service, world.orgId, ['catalogue:read']);
  const server = httpServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const documents = [(await request(app).get('/v1/openapi.json')).body as OpenApiDocument, (await request(app).get('/admin/v1/openapi.json')).body as OpenApiDocument];

  const planIds = Object.values(world.plans).map((plan) => plan.id);
  const ids: Record<string, string[]> = {
    customers: [world.customerId],
    plans: planIds,
    charges: [world.charge.id, world.huge.chargeId],
    subscriptions: [subscription.body.id as string],
    invoices: [subscription.body.invoice.id as string],
    api_keys: [spareKey.id],
    organisations: [world.orgId, (other.body as { id: string }).id],
  };
  const pathValues: PathValues = (path, name) => {
    const resource = name === 'org' ? 'organisations' : (/\/(\w+)\/\{id\}/.exec(path)?.[1] ?? '');
    const known = ids[resource] ?? [];
    return known.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, fc.string({ minLength: 1, maxLength: 30 })) : fc.string({ minLength: 1 });
  };
  const anyId = fc.constantFrom(...Object.values(ids).flat());
  const hints: Hints = {
    customer_code: fc.constantFrom('C1', 'C2', 'NEW-1'),
    plan_code: fc.constantFrom('seats', 'flat', 'tiered', 'volume', 'stairs', 'metered', 'huge'),
    charge: fc.constantFrom(world.charge.id, world.huge.chargeId),
    meter_code: fc.constantFrom('api_calls', 'storage_gb'),
    timezone: fc.constantFrom('Europe/London', 'Pacific/Kiritimati', 'America/New_York', 'Etc/GMT+12'),
    default_currency: fc.constantFrom('GBP', 'EUR'),
    currency: fc.constant('GBP'),
    start_date: fc.constantFrom('2026-03-15', '2026-04-30', '2025-01-31', '1970-01-01', '9999-12-31', '9999-01-01', '2024-02-29'),
    units: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constant(999_999_999)),
    quantity: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant(10_000)),
    end_after_cycles: fc.oneof(fc.integer({ min: 1, max: 24 }), fc.constant(10_000), fc.constant(null)),
    discount_percent: fc.constantFrom('0', '10', '12.5', '100.00'),
    revenue: fc.constantFrom('200', '260', '270', '999'),
    usage_revenue: fc.constantFrom('200', '260', '270', '999'),
    tiers: fc.constant(tiers),
    expires_at: fc.constantFrom('2030-01-01T00:00:00Z', '2020-01-01T00:00:00Z', '9999-12-31T23:59:59Z'),
    // Requests known to pass every rule the document cannot state, beside those generated from it.
    'body.createSubscription': fc.record({
      customer_code: fc.constant('C1'),
      plan_code: fc.constantFrom('seats', 'tiered', 'volume', 'stairs', 'huge'),
      units: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 2, max: 40 }) }, fc.constant(999_999_999)),
      discount_percent: fc.constantFrom('0', '15.5'),
      start_date: fc.constantFrom('2026-03-15', '2026-05-31', '2024-02-29', '1970-01-01', '9999-12-31'),
      end_after_cycles: fc.option(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 36 }) }, fc.constant(10_000))),
      charges: fc.array(fc.record({ charge: fc.constantFrom(world.charge.id, world.huge.chargeId), quantity: fc.constantFrom(1, 2, 10_000) }), { maxLength: 2 }),
    }),
    'body.createCustomer': fc.record({ code: fc.stringMatching(/^[A-Z]{3,8}-\d{1,4}$/), name: fc.stringMatching(/^[A-Z][a-z]{2,12} Ltd$/) }),
    'query.limit': fc.constantFrom('1', '2', '25', '100'),
    'query.status': fc.constantFrom('active', 'active,draft', 'pending,active,complete,ended', 'inactive'),
    'query.code': fc.constantFrom('C1', 'seats', 'setup'),
    'query.starting_after': anyId,
    'query.customer': anyId,
    'query.subscription': anyId,
  };
  return {
    ...world,
    server,
    url,
    credentials: { apiKey: world.auth.Authorization.replace('Bearer ', ''), adminToken: ADMIN_TOKEN },
    documents,
    pathValues,
    hints,
    restore: async () => {
      const admin = (method: 'patch' | 'post' | 'put', path: string, body: object) =>
        request(app)[method](`/admin/v1/organisations/${world.orgId}${path}`).set(world.service.admin).send(body);
      await admin('patch', '', { setup_mode: false, can_create_accounting_contacts: true, timezone: 'Europe/London', plan_limits: { customers: null, subscriptions: null } });
      await admin('post', '/accounting/connect', {});
      await admin('put', '/accounting/accounts', { revenue: '200', usage_revenue: '270' });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await world.service.close();
    },
  };
};

export type Answer = Readonly<{ status: number; headers: Headers; text: string; ms: number }>;

/** Sends a request exactly as built (raw path and query, raw body bytes) to the real server. */
export const send = async (url: string, fuzz: FuzzRequest, timeoutMs: number): Promise<Answer> => {
  const started = performance.now();
  const carriesBody = fuzz.method !== 'GET' && fuzz.method !== 'HEAD' && fuzz.body !== null;
  const response = await fetch(`${url}${fuzz.path}${fuzz.query ? `?${fuzz.query}` : ''}`, {
    method: fuzz.method,
    headers: fuzz.headers,
    ...(carriesBody ? { body: fuzz.body as string | Uint8Array } : {}),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, ms: performance.now() - started };
};
