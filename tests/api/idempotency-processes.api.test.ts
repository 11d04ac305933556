import request from 'supertest';
import { expectError } from '../support/api-assertions';
import { connectAccounting, createKey, createOrganisation } from '../support/fixtures';
import { redisUrl } from '../support/redis';
import { startTestService, tempDir, type TestService } from '../support/test-service';

/** Two service processes on one data directory and one Redis: an Idempotency-Key holds across them. */
const describeWithRedis = redisUrl ? describe : describe.skip;

describeWithRedis(`idempotency across processes (Redis profile${redisUrl ? '' : '; skipped: REDIS_URL not set'})`, () => {
  let first: TestService;
  let second: TestService;
  let auth: { Authorization: string };
  let tenantId: string;
  beforeAll(async () => {
    const dataDir = tempDir('two-processes');
    first = await startTestService(dataDir, { env: { REDIS_URL: redisUrl! } });
    second = await startTestService(dataDir, { env: { REDIS_URL: redisUrl! } });
    const org = await createOrganisation(first, { can_create_accounting_contacts: true });
    tenantId = await connectAccounting(first, org.id);
    auth = (await createKey(first, org.id, ['customers:write'])).auth;
    await second.services.projections.catchUp();
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('lets one process run the request while the other answers request_in_progress, then replays', async () => {
    // Slow the first process's accounting look-up so its request is still running when the second arrives.
    await fetch(`${first.services.accountingUrl}/control/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'slow', pathPrefix: `/tenants/${tenantId}/contacts`, method: 'GET', count: 1, delayMs: 500 }),
    });
    const body = { code: 'RACE-1', name: 'Race One' };
    const headers = { ...auth, 'Idempotency-Key': 'race-across-processes' };
    const running = request(first.app).post('/v1/customers').set(headers).send(body).then((r) => r);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const raced = await request(second.app).post('/v1/customers').set(headers).send(body);
    expectError(raced, 409, 'conflict', 'request_in_progress');
    expect(raced.headers['retry-after']).toBe('2');
    const done = await running;
    expect(done.status).toBe(201);
    const replayed = await request(second.app).post('/v1/customers').set(headers).send(body);
    expect(replayed.status).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(done.body);
  });
});
