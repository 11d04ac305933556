import { type AddressInfo, connect } from 'node:net';
import type { Server } from 'node:http';
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../api/app';
import { httpServer, MAX_HEADER_BYTES } from '../../api/http-server';
import { apiDeps } from '../../service/services';
import { expectError } from '../support/api-assertions';
import { hostileWorld, type HostileWorld } from '../support/hostile-world';
import { ADMIN_TOKEN } from '../support/test-service';

/** Issue 11, "hostile input": one describe per class, each naming it. */
describe('hostile input', () => {
  let world: HostileWorld;
  let n = 0;
  beforeAll(async () => {
    world = await hostileWorld('hostile');
  });
  afterAll(async () => {
    await world.service.close();
  });

  const app = () => world.service.app;
  const head = () => world.service.services.store.headPosition();
  const createSubscription = (body: object, key = `hostile-${++n}`) =>
    request(app()).post('/v1/subscriptions').set(world.auth).set('Idempotency-Key', key).send(body);

  describe('class 1: malformed input reaching a 500', () => {
    it('answers a path parameter that is not valid percent-encoding with 404 unknown_endpoint', async () => {
      for (const path of ['/v1/customers/%E0%A4%A', '/v1/plans/%', '/v1/subscriptions/%FF', '/admin/v1/organisations/%zz']) {
        const response = await request(app()).get(path).set(path.startsWith('/admin') ? world.service.admin : world.auth);
        expectError(response, 404, 'not_found', 'unknown_endpoint');
      }
      const patch = await request(app()).patch('/admin/v1/organisations/%C0').set(world.service.admin).send({ name: 'x' });
      expectError(patch, 404, 'not_found', 'unknown_endpoint');
    });

    it('answers OPTIONS, which the router would answer itself, as 404 unknown_endpoint', async () => {
      expectError(await request(app()).options('/v1/openapi.json'), 404, 'not_found', 'unknown_endpoint');
      expectError(await request(app()).options('/v1/customers').set(world.auth), 404, 'not_found', 'unknown_endpoint');
      expectError(await request(app()).options(`/admin/v1/organisations/${world.orgId}`).set(world.service.admin), 404, 'not_found', 'unknown_endpoint');
    });

    it('answers a path that differs from a declared one by case or a trailing slash as 404 unknown_endpoint', async () => {
      for (const path of ['/v1/invoices/', '/v1/customers/', `/v1/customers/${world.customerId}/`, '/V1/plans', '/v1/Plans', '/v1//plans']) {
        expectError(await request(app()).get(path).set(world.auth), 404, 'not_found', 'unknown_endpoint');
      }
      expectError(await request(app()).get('/v1/OPENAPI.json'), 404, 'not_found', 'unknown_endpoint');
      expectError(await request(app()).get(`/ADMIN/v1/organisations/${world.orgId}`).set(world.service.admin), 404, 'not_found', 'unknown_endpoint');
    });

    it('refuses JSON nested tens of thousands of levels deep as 400 invalid_json before any recursive code runs', async () => {
      const deep = `${'['.repeat(49_000)}${']'.repeat(49_000)}`;
      const deepObject = `${'{"a":'.repeat(16_000)}1${'}'.repeat(16_000)}`;
      for (const body of [deep, deepObject]) {
        const before = await head();
        const response = await request(app())
          .post('/v1/subscriptions')
          .set(world.auth)
          .set('Idempotency-Key', `deep-${++n}`)
          .set('Content-Type', 'application/json')
          .send(body);
        expectError(response, 400, 'invalid_request_error', 'invalid_json');
        expect(await head()).toBe(before);
      }
      // Twenty levels are read (and refused by the schema, naming the field); twenty-one are not.
      const nested = (levels: number) => `{"label":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
      const twenty = await request(app()).post('/v1/customers').set(world.auth).set('Content-Type', 'application/json').send(nested(20));
      expectError(twenty, 422, 'invalid_request_error', 'invalid_parameter');
      const deeper = await request(app()).post('/v1/customers').set(world.auth).set('Content-Type', 'application/json').send(nested(21));
      expectError(deeper, 400, 'invalid_request_error', 'invalid_json');
    });

    it('logs a client-aborted upload as an abort, never as an unhandled error', async () => {
      const lines: string[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
      const server: Server = httpServer(createApp({ ...apiDeps(world.service.services, ADMIN_TOKEN), logger }).app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        await new Promise<void>((resolve) => {
          const socket = connect(port, '127.0.0.1', () => {
            socket.write(
              `POST /v1/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${world.auth.Authorization}\r\n` +
                'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"code":"AB',
            );
            setTimeout(() => {
              socket.destroy();
              resolve();
            }, 100);
          });
        });
        for (let i = 0; i < 50 && !lines.some((line) => line.includes('client aborted')); i++) await new Promise((r) => setTimeout(r, 20));
        expect(lines.some((line) => line.includes('client aborted its request'))).toBe(true);
        expect(lines.filter((line) => line.includes('unhandled error'))).toEqual([]);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('answers a request that is not HTTP with the document’s error body and a Request-Id', async () => {
      const server = httpServer(app());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const raw = await new Promise<string>((resolve) => {
          let text = '';
          const socket = connect((server.address() as AddressInfo).port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
          socket.on('data', (chunk) => (text += chunk.toString()));
          socket.on('close', () => resolve(text));
        });
        const [head = '', body = ''] = raw.split('\r\n\r\n');
        expect(head).toMatch(/^HTTP\/1\.1 400 /);
        const requestId = /\r\nRequest-Id: (req_\w+)/.exec(head)?.[1];
        expect(JSON.parse(body)).toEqual({
          error: { type: 'invalid_request_error', code: 'invalid_request', message: expect.any(String), request_id: requestId },
        });
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  describe('class 2: unbounded work on the event loop', () => {
    it('refuses a start date whose first period ends after 9999-12-31, at once, naming start_date', async () => {
      const started = Date.now();
      const response = await createSubscription({ customer_code: 'C1', plan_code: 'volume', units: 5, start_date: '9999-12-31' });
      expectError(response, 422, 'invalid_request_error', 'invalid_parameter', 'start_date');
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('refuses dates outside 1970-01-01 to 9999-12-31 and impossible dates, naming start_date', async () => {
      for (const start_date of ['1969-12-31', '10000-01-01', '+010000-01-01', '2026-02-30', '2026-3-1', '0000-01-01']) {
        const response = await createSubscription({ customer_code: 'C1', plan_code: 'seats', units: 5, start_date });
        expectError(response, 422, 'invalid_request_error', 'invalid_parameter', 'start_date');
      }
      const oldest = await createSubscription({ customer_code: 'C1', plan_code: 'stairs', units: 5, start_date: '1970-01-01' });
      expect(oldest.status).toBe(201);
      expect(oldest.body.renewal_date).toBe('2026-03-19');
    });

    it('refuses end_after_cycles whose end date would pass 9999-12-31, naming end_after_cycles', async () => {
      const response = await createSubscription({ customer_code: 'C1', plan_code: 'volume', units: 5, end_after_cycles: 10_000 });
      expectError(response, 422, 'invalid_request_error', 'invalid_parameter', 'end_after_cycles');
      const ok = await createSubscription({ customer_code: 'C1', plan_code: 'volume', units: 5, end_after_cycles: 7_000 });
      expect(ok.status).toBe(201);
      expect(ok.body.end_date).toBe('9026-03-15');
    });
  });

  describe('class 3: a write recorded before every rule has passed', () => {
    it('refuses price × units over the money limit with 422 naming units, recording nothing, and a corrected retry succeeds', async () => {
      const before = await head();
      const key = `overflow-${++n}`;
      const refused = await createSubscription({ customer_code: 'C1', plan_code: world.huge.planCode, units: 999_999_999 }, key);
      expectError(refused, 422, 'invalid_request_error', 'invalid_parameter', 'units');
      const again = await createSubscription({ customer_code: 'C1', plan_code: world.huge.planCode, units: 999_999_999 }, key);
      expectError(again, 422, 'invalid_request_error', 'invalid_parameter', 'units');
      expect(await head()).toBe(before);
      const corrected = await createSubscription({ customer_code: 'C1', plan_code: world.huge.planCode, units: 1 }, key);
      expect(corrected.status).toBe(201);
      expect(corrected.body.invoice.subtotal).toBe('999999999999.9999');
    });

    it('refuses a unit change whose renewal fee or prorated charge passes the limit with 422 naming units, recording nothing', async () => {
      const created = await createSubscription({ customer_code: 'C1', plan_code: world.huge.planCode, units: 1 });
      expect(created.status).toBe(201);
      const before = await head();
      const change = (body: object) => request(app()).post(`/v1/subscriptions/${created.body.id}/units`).set(world.auth).send(body);
      expectError(await change({ units: 2 }), 422, 'invalid_request_error', 'invalid_parameter', 'units');
      expectError(await change({ units: 2, prorate: true, effective_date: created.body.start_date }), 422, 'invalid_request_error', 'invalid_parameter', 'units');
      expect(await head()).toBe(before);
      expect((await change({ units: 0, prorate: true, effective_date: created.body.start_date })).status).toBe(200);
    });

    it('refuses charges whose price × quantity, or whose sum with the fee, passes the limit, naming the charge quantity', async () => {
      const before = await head();
      const alone = await createSubscription({ customer_code: 'C1', plan_code: 'seats', units: 5, charges: [{ charge: world.huge.chargeId, quantity: 2 }] });
      expectError(alone, 422, 'invalid_request_error', 'invalid_parameter', 'charges.0.quantity');
      const summed = await createSubscription({
        customer_code: 'C1',
        plan_code: 'seats',
        units: 5,
        charges: [{ charge: world.charge.id }, { charge: world.huge.chargeId }],
      });
      expectError(summed, 422, 'invalid_request_error', 'invalid_parameter', 'charges.1.quantity');
      expect(await head()).toBe(before);
    });
  });

  describe('class 6: lenient parsing where the document is strict', () => {
    it('takes limit only as 1 to 100 in decimal digits', async () => {
      for (const limit of ['1e1', '0x2', '2.0', '+5', '010', '0', '101', '999', '', ' 5', '5 ']) {
        const response = await request(app()).get('/v1/customers').query(`limit=${encodeURIComponent(limit)}`).set(world.auth);
        expectError(response, 422, 'invalid_request_error', 'invalid_parameter', 'limit');
        expect(response.body.error.message).toBe('limit: must be a whole number from 1 to 100 in decimal digits');
      }
      for (const [query, param] of [['limit=1&limit=2', 'limit'], ['status=active&status=archived', 'status'], ['limit=1&code=A&code=B', 'code']]) {
        const twice = await request(app()).get(`/v1/customers?${query}`).set(world.auth);
        expectError(twice, 422, 'invalid_request_error', 'invalid_parameter', param);
        expect(twice.body.error.message).toBe(`${param}: sent more than once; send it once (a list takes comma-separated values).`);
      }
      expect((await request(app()).get('/v1/customers?limit=100').set(world.auth)).status).toBe(200);
    });

    it('refuses query parameters on routes that take none, naming them', async () => {
      const cases: [string, string, Record<string, string>][] = [
        ['/v1/organisation?expand=all', 'expand', world.auth],
        [`/v1/customers/${world.customerId}?fields=id`, 'fields', world.auth],
        ['/v1/openapi.json?x', 'x', {}],
        [`/admin/v1/organisations/${world.orgId}?debug=1`, 'debug', world.service.admin],
      ];
      for (const [path, param, headers] of cases) {
        expectError(await request(app()).get(path).set(headers), 422, 'invalid_request_error', 'invalid_parameter', param);
      }
    });

    it('refuses a query parameter that is not valid percent-encoded UTF-8, naming it', async () => {
      for (const query of ['code=%FF', 'code=%E0%A4', 'code=%zz']) {
        expectError(await request(app()).get(`/v1/customers?${query}`).set(world.auth), 422, 'invalid_request_error', 'invalid_parameter', 'code');
      }
    });

    it('refuses a body sent without Content-Type: application/json, naming the header', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/jsonx']) {
        const response = await request(app()).post('/v1/customers').set(world.auth).set('Content-Type', type).send('{"code":"T1","name":"T"}');
        expectError(response, 422, 'invalid_request_error', 'invalid_parameter', 'Content-Type');
      }
      const utf8 = await request(app())
        .post('/v1/customers')
        .set(world.auth)
        .set('Content-Type', 'Application/JSON; charset=UTF-8')
        .send('{"code":"C1","name":"Customer One"}');
      expect(utf8.status).toBe(200);
    });

    it('refuses a body that is not valid UTF-8 as 400 invalid_json instead of reading U+FFFD', async () => {
      const body = Buffer.concat([Buffer.from('{"code":"X'), Buffer.from([0xff, 0xfe]), Buffer.from('","name":"N"}')]);
      const server = httpServer(app());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/customers`, {
          method: 'POST',
          headers: { ...world.auth, 'Content-Type': 'application/json' },
          body,
        });
        const answer = (await response.json()) as { error: { code: string; request_id: string } };
        expect([response.status, answer.error.code]).toEqual([400, 'invalid_json']);
        expect(answer.error.request_id).toBe(response.headers.get('request-id'));
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  describe('class 7: oversized headers', () => {
    let server: Server;
    beforeAll(async () => {
      server = httpServer(app());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    it('answers a 20,000-character Idempotency-Key with 422 idempotency_key_invalid', async () => {
      const response = await request(url())
        .post('/v1/subscriptions')
        .set(world.auth)
        .set('Idempotency-Key', 'k'.repeat(20_000))
        .send({ customer_code: 'C1', plan_code: 'seats', units: 5 });
      expectError(response, 422, 'invalid_request_error', 'idempotency_key_invalid');
    });

    it(`answers headers over ${MAX_HEADER_BYTES} bytes with the document's error body and a Request-Id`, async () => {
      const response = await fetch(`${url()}/v1/organisation`, { headers: { ...world.auth, 'X-Padding': 'p'.repeat(MAX_HEADER_BYTES) } });
      const body = (await response.json()) as { error: { type: string; code: string; request_id: string } };
      expect(response.status).toBe(431);
      expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'headers_too_large' });
      expect(response.headers.get('request-id')).toBe(body.error.request_id);
    });
  });
});
