import request from 'supertest';
import { createApp } from '../../api/app';
import { apiDeps } from '../../service/services';
import { testEvent } from '../support/events';
import { checkedApp } from '../support/response-check';
import { ADMIN_TOKEN, startTestService, tempDir, type TestService } from '../support/test-service';

describe('GET /health/live and /health/ready', () => {
  let service: TestService;
  beforeEach(async () => {
    service = await startTestService(tempDir('health'), { env: { READY_MAX_LAG_EVENTS: '3' } });
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await service.close();
  });

  it('answers live and ready without a key, every check named and passing', async () => {
    const live = await request(service.app).get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    const ready = await request(service.app).get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: { event_store: { status: 'ok' }, read_store: { status: 'ok' }, locks: { status: 'ok' }, jobs: { status: 'ok' }, projections: { status: 'ok' } },
    });
    expect(ready.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('turns 503 naming projections once a stopped projection lags past READY_MAX_LAG_EVENTS, live all along', async () => {
    await service.services.projections.stop();
    const append = (n: number) => service.services.store.append(`noise-${n}`, [testEvent('NoiseRecorded')], 'no_stream');
    for (let n = 0; n < 3; n++) await append(n);
    // Three behind is within the limit.
    expect((await request(service.app).get('/health/ready')).status).toBe(200);
    await append(3);
    const ready = await request(service.app).get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('not_ready');
    expect(ready.body.failing).toEqual(['projections']);
    expect(ready.body.checks.projections.error).toMatch(/^\w+ is 4 events behind, .*\(READY_MAX_LAG_EVENTS=3\)$/);
    expect(ready.body.checks.event_store).toEqual({ status: 'ok' });
    expect((await request(service.app).get('/health/live')).status).toBe(200);
  });

  it('names the store that fails or does not answer in time', async () => {
    jest.spyOn(service.services.readStore, 'get').mockRejectedValue(new Error('disk I/O error'));
    jest.spyOn(service.services.leases, 'acquire').mockReturnValue(new Promise(() => undefined));
    const ready = await request(service.app).get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.failing).toEqual(['read_store', 'locks']);
    expect(ready.body.checks.read_store).toEqual({ status: 'failing', error: 'disk I/O error' });
    expect(ready.body.checks.locks).toEqual({ status: 'failing', error: 'no answer within 2000 ms' });
    expect(ready.body.checks.event_store).toEqual({ status: 'ok' });
  });

  it('answers 503 stopping once a stop has begun, every store still answering', async () => {
    let stopping = false;
    const { app, routes } = createApp(apiDeps(service.services, ADMIN_TOKEN, null, () => stopping));
    const checked = checkedApp(app, routes);
    expect((await request(checked).get('/health/ready')).status).toBe(200);
    stopping = true;
    const ready = await request(checked).get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'stopping', failing: ['stopping'] });
    expect((await request(checked).get('/health/live')).status).toBe(200);
  });
});
