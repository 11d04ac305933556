import request from 'supertest';
import { usageStatesOf } from '../../commands/plumbing/usage-states';
import { usageRecordedData, usageStream } from '../../domain/usage/events';
import { fixedClock } from '../../infra/clock/clock';
import { USAGE_PERIODS, type UsagePeriodDoc } from '../../projections/read-models/usage';
import { expectError } from '../support/api-assertions';
import { billingOrganisation } from '../support/catalogue-fixtures';
import { testEvent } from '../support/events';
import { createKey } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';

describe('POST /v1/usage_events', () => {
  // 10:00 UTC on 15 March 2026 in Europe/London: a monthly subscription starting today bills usage
  // in periods 2026-03-15 to 2026-04-15, 2026-04-15 to 2026-05-15, …
  const clock = fixedClock(new Date('2026-03-15T10:00:00.000Z'));
  let service: TestService;
  let orgId: string;
  let auth: { Authorization: string };
  let n = 0;
  beforeAll(async () => {
    service = await startTestService(tempDir('usage'), { clock });
    ({ orgId, auth } = await billingOrganisation(service, ['subscriptions:write', 'customers:write', 'usage:write']));
  });
  afterAll(async () => {
    await service.close();
  });

  /** A subscription to the metered plan (meters api_calls and storage_gb), or to another plan. */
  const subscribe = async (body: object = { plan_code: 'metered' }) => {
    const response = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', `sub-${++n}`).send({ customer_code: 'C1', ...body });
    if (response.status !== 201) throw new Error(JSON.stringify(response.body));
    return (response.body as { id: string }).id;
  };
  const report = (events: unknown, headers: Record<string, string> = auth) => request(service.app).post('/v1/usage_events').set(headers).send({ events });
  const period = (subscription: string, meter: string, start = '2026-03-15') =>
    service.services.readStore.findAll<UsagePeriodDoc>(USAGE_PERIODS, [
      { field: 'subscription', eq: subscription },
      { field: 'meter_code', eq: meter },
      { field: 'period_start', eq: start },
    ]);
  const event = (subscription: string, id: string, extra: object = {}) => ({ event_id: id, subscription, meter_code: 'api_calls', quantity: '1', ...extra });

  it('stores every event and answers 200, a result per event in the order sent, no error on created ones', async () => {
    const sub = await subscribe();
    const response = await report([
      event(sub, 'a-1', { quantity: '12.5' }),
      event(sub, 'a-2', { quantity: 7, timestamp: '2026-03-20T09:00:00+01:00' }),
      event(sub, 'a-3', { meter_code: 'storage_gb', quantity: '0.0001' }),
    ]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'usage_event_batch',
      created: 3,
      duplicates: 0,
      rejected: 0,
      results: [
        { event_id: 'a-1', status: 'created' },
        { event_id: 'a-2', status: 'created' },
        { event_id: 'a-3', status: 'created' },
      ],
    });
    // 12.5 + 7 = 19.5 calls in the first period, one document per subscription, meter and period.
    expect(await period(sub, 'api_calls')).toEqual([expect.objectContaining({ quantity: '19.5000', events: 2, period_end: '2026-04-15' })]);
    expect(await period(sub, 'storage_gb')).toEqual([expect.objectContaining({ quantity: '0.0001', events: 1 })]);
  });

  it('answers 207 with every rejection code in the order sent, storing the rest', async () => {
    const sub = await subscribe();
    const seats = await subscribe({ plan_code: 'seats', units: 3 });
    const other = await billingOrganisation(service, ['subscriptions:write', 'customers:write']);
    const theirs = (
      await request(service.app).post('/v1/subscriptions').set(other.auth).set('Idempotency-Key', 'theirs').send({ customer_code: 'C1', plan_code: 'metered' })
    ).body.id as string;
    await report([event(sub, 'b-stored', { quantity: '2' })]).expect(200);

    const response = await report([
      event(sub, 'b-ok', { quantity: '3' }),
      event('sub_unknown', 'b-1'),
      event(theirs, 'b-2'),
      event(seats, 'b-3'),
      event(sub, 'b-4', { meter_code: 'unknown_meter' }),
      event(sub, 'b-5', { quantity: '1.23456' }),
      event(sub, 'b-6', { quantity: -1 }),
      event(sub, 'b-7', { quantity: '1000000000000' }),
      event(sub, 'b-8', { timestamp: 'yesterday' }),
      event(sub, 'b-9', { timestamp: '2026-03-14T23:59:59Z' }),
      event(sub, 'b-stored', { quantity: '2' }),
      event(sub, 'b-stored', { quantity: '2.5' }),
    ]);
    expect(response.status).toBe(207);
    expect(response.body).toMatchObject({ object: 'usage_event_batch', created: 1, duplicates: 1, rejected: 10 });
    const results = response.body.results as { event_id: string; status: string; error?: { code: string } }[];
    expect(results.map((r) => [r.event_id, r.status, r.error?.code])).toEqual([
      ['b-ok', 'created', undefined],
      ['b-1', 'rejected', 'subscription_not_found'],
      ['b-2', 'rejected', 'subscription_not_found'],
      ['b-3', 'rejected', 'meter_not_on_plan'],
      ['b-4', 'rejected', 'meter_not_on_plan'],
      ['b-5', 'rejected', 'invalid_quantity'],
      ['b-6', 'rejected', 'invalid_quantity'],
      ['b-7', 'rejected', 'invalid_quantity'],
      ['b-8', 'rejected', 'invalid_timestamp'],
      ['b-9', 'rejected', 'timestamp_out_of_period'],
      ['b-stored', 'duplicate', undefined],
      ['b-stored', 'rejected', 'event_id_conflict'],
    ]);
    expect(results.filter((r) => r.status !== 'rejected').every((r) => !('error' in r))).toBe(true);
    expect(results[1]).toEqual({ event_id: 'b-1', status: 'rejected', error: { code: 'subscription_not_found', message: expect.any(String) } });
    expect(await period(sub, 'api_calls')).toEqual([expect.objectContaining({ quantity: '5.0000', events: 2 })]);
  });

  it('refuses usage in a period already billed, and all usage once an ended subscription’s final usage is billed', async () => {
    const sub = await subscribe();
    // Given the usage close billed the first period (the scheduler's event, appended here as it will be).
    await service.services.store.append(
      `usage-${sub}`,
      [testEvent('UsagePeriodBilled', { subscriptionId: sub, periodStart: '2026-03-15', periodEnd: '2026-04-15', invoiceId: null, billedAt: '2026-04-16T10:00:00.000Z', meters: [] })],
      'no_stream',
    );
    clock.set(new Date('2026-04-20T10:00:00.000Z'));
    try {
      const billed = await report([event(sub, 'c-1', { timestamp: '2026-04-14T12:00:00Z' }), event(sub, 'c-2')]);
      expect(billed.status).toBe(207);
      expect(billed.body.results.map((r: { error?: { code: string } }) => r.error?.code)).toEqual(['timestamp_out_of_period', undefined]);
      expect(await period(sub, 'api_calls', '2026-04-15')).toEqual([expect.objectContaining({ quantity: '1.0000', events: 1 })]);

      await request(service.app).post(`/v1/subscriptions/${sub}/end`).set(auth).send({ when: 'now' }).expect(200);
      const beforeFinal = await report([event(sub, 'c-3', { timestamp: '2026-04-19T12:00:00Z' })]);
      expect(beforeFinal.status).toBe(200);
      // Given its final usage invoice billed usage up to the end date.
      await service.services.store.append(
        `usage-${sub}`,
        [testEvent('UsagePeriodBilled', { subscriptionId: sub, periodStart: '2026-04-15', periodEnd: '2026-04-20', invoiceId: null, billedAt: '2026-04-20T10:00:00.000Z', meters: [] })],
        'any',
      );
      const after = await report([event(sub, 'c-4', { timestamp: '2026-04-19T12:00:00Z' }), event(sub, 'c-3', { timestamp: '2026-04-19T12:00:00Z' })]);
      expect(after.status).toBe(207);
      expect(after.body.results).toEqual([
        { event_id: 'c-4', status: 'rejected', error: { code: 'subscription_not_billable', message: expect.any(String) } },
        { event_id: 'c-3', status: 'duplicate' },
      ]);
    } finally {
      clock.set(new Date('2026-03-15T10:00:00.000Z'));
    }
  });

  it('keeps an event_id unique per organisation: reused on another subscription it is a conflict', async () => {
    const first = await subscribe();
    const second = await subscribe();
    await report([event(first, 'd-1')]).expect(200);
    const again = await report([event(second, 'd-1'), event(second, 'd-2'), event(first, 'd-2')]);
    expect(again.status).toBe(207);
    expect(again.body.results.map((r: { status: string; error?: { code: string } }) => r.error?.code ?? r.status)).toEqual([
      'event_id_conflict',
      'created',
      'event_id_conflict',
    ]);
  });

  it('stores an event_id once when concurrent requests send it to two subscriptions', async () => {
    const [first, second] = [await subscribe(), await subscribe()];
    const ids = Array.from({ length: 50 }, (_, i) => `race-${i}`);
    const answers = await Promise.all([first, second, first, second].map((sub) => report(ids.map((id) => event(sub, id)))));
    const statuses = answers.flatMap((answer) => answer.body.results.map((r: { status: string; error?: { code: string } }) => r.error?.code ?? r.status));
    // Each id is created once, on one of the two; every other send of it is a duplicate (same subscription) or a conflict.
    expect(statuses.filter((status: string) => status === 'created')).toHaveLength(ids.length);
    const counted = await Promise.all([first, second].map(async (sub) => (await period(sub, 'api_calls'))[0]?.events ?? 0));
    expect(counted[0]! + counted[1]!).toBe(ids.length);
  });

  it('counts a JSON number exactly: 0.1 + 0.2 is 0.3000', async () => {
    const sub = await subscribe();
    await report([event(sub, 'e-1', { quantity: 0.1 }), event(sub, 'e-2', { quantity: 0.2 }), event(sub, 'e-3', { quantity: 999999999999 })]).expect(200);
    expect(await period(sub, 'api_calls')).toEqual([expect.objectContaining({ quantity: '999999999999.3000', events: 3 })]);
  });

  it('answers a retry with the same Idempotency-Key with the first answer', async () => {
    const sub = await subscribe();
    const send = () => request(service.app).post('/v1/usage_events').set(auth).set('Idempotency-Key', `usage-${sub}`).send({ events: [event(sub, 'f-1')] });
    const first = await send();
    const replay = await send();
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    // Without the key, a resend is answered as a duplicate.
    expect((await report([event(sub, 'f-1')])).body.results).toEqual([{ event_id: 'f-1', status: 'duplicate' }]);
  });

  it.each([
    ['not an object', [{}], undefined],
    ['no events', {}, 'events'],
    ['no event', { events: [] }, 'events'],
    ['more than 100 events', { events: Array.from({ length: 101 }, (_, i) => ({ event_id: `x-${i}`, subscription: 's', meter_code: 'm', quantity: 1 })) }, 'events'],
    ['an event without event_id', { events: [{ subscription: 's', meter_code: 'm', quantity: 1 }] }, 'events.0.event_id'],
    ['an event_id over 255 characters', { events: [{ event_id: 'x'.repeat(256), subscription: 's', meter_code: 'm', quantity: 1 }] }, 'events.0.event_id'],
    ['an event_id with a control character', { events: [{ event_id: 'a\nb', subscription: 's', meter_code: 'm', quantity: 1 }] }, 'events.0.event_id'],
    ['an unknown field', { events: [{ event_id: 'x', subscription: 's', meter_code: 'm', quantity: 1, units: 2 }] }, 'events.0.units'],
    ['an event that is not an object', { events: ['x'] }, 'events.0'],
  ])('refuses a malformed body as a whole with 422: %s', async (_label, body, param) => {
    const response = await request(service.app).post('/v1/usage_events').set(auth).send(body);
    expectError(response, 422, 'invalid_request_error', 'invalid_parameter', param);
  });

  it('needs the usage:write scope', async () => {
    const key = await createKey(service, orgId, ['subscriptions:write']);
    expectError(await report([event('sub_x', 'g-1')], key.auth), 403, 'permission_error', 'insufficient_scope');
  });

  it('counts a batch of 100 events as one request against the rate limit', async () => {
    const sub = await subscribe();
    const key = await createKey(service, orgId, ['usage:write']);
    const batch = (from: number) => Array.from({ length: 100 }, (_, i) => event(sub, `h-${from + i}`));
    const first = await report(batch(0), key.auth);
    const second = await report(batch(100), key.auth);
    expect(first.status).toBe(200);
    expect(first.body.created).toBe(100);
    expect([first.headers['ratelimit-remaining'], second.headers['ratelimit-remaining']]).toEqual(['119', '118']);
    expect(await period(sub, 'api_calls')).toEqual([expect.objectContaining({ quantity: '200.0000', events: 200 })]);
  });

  it('keeps only the ids the id index has not read yet, and judges older ones from the event the index names', async () => {
    const sub = await subscribe();
    await report([event(sub, 'k-1', { quantity: '1' }), event(sub, 'k-2', { quantity: '2' })]).expect(200);
    await report([event(sub, 'k-3', { quantity: '3' })]).expect(200);
    const { usageEventIds, store } = service.services;
    for (let tries = 0; tries < 2000 && (await usageEventIds.holdersOf(orgId, sub, [])).readThrough < 1; tries++) await new Promise((resolve) => setTimeout(resolve, 5));
    await report([event(sub, 'k-4')]).expect(200);
    // The two batches the index had read are forgotten: the kept state holds k-4 alone.
    expect(usageStatesOf(store).idsKept(usageStream(sub))).toBe(1);

    const resent = await report([event(sub, 'k-1', { quantity: '1' }), event(sub, 'k-2', { quantity: '5' }), event(sub, 'k-3', { quantity: '3' }), event(sub, 'k-4'), event(sub, 'k-5')]);
    expect((resent.body as { results: { status: string; error?: { code: string } }[] }).results.map((r) => r.error?.code ?? r.status)).toEqual([
      'duplicate',
      'event_id_conflict',
      'duplicate',
      'duplicate',
      'created',
    ]);
    expect(await period(sub, 'api_calls')).toEqual([expect.objectContaining({ quantity: '8.0000', events: 5 })]);
  });

  it('reads a long usage stream back from its snapshot after a restart, folding only what follows it', async () => {
    const sub = await subscribe();
    await report([event(sub, 's-first')]).expect(200);
    // 250 more batches appended straight to the log (as many requests would), then one through the API: its load folds them and snapshots the state.
    const { store } = service.services;
    const batch = (k: number) => ({
      ...testEvent('UsageRecorded', usageRecordedData(sub, orgId, '2026-03-15T10:00:00.000Z', [{ eventId: `s-${k}`, meterId: 'mtr_x', meterCode: 'api_calls', quantity: '1.0000', timestamp: '2026-03-15T10:00:00.000Z', timestampSent: false, periodStart: '2026-03-15', periodEnd: '2026-04-15' }])),
      version: 2,
    });
    for (let k = 0; k < 250; k++) await store.append(usageStream(sub), [batch(k)], k + 0);
    await report([event(sub, 's-last')]).expect(200);

    await service.close();
    service = await startTestService(service.dataDir, { clock });
    const reads: (number | undefined)[] = [];
    const read = service.services.store.readStreamToFold.bind(service.services.store);
    service.services.store.readStreamToFold = (streamId, from, limit) => {
      if (streamId === usageStream(sub)) reads.push(from);
      return read(streamId, from, limit);
    };
    const answer = await report([event(sub, 's-first'), event(sub, 's-7'), event(sub, 's-after')]);
    expect(answer.body.results.map((r: { status: string }) => r.status)).toEqual(['duplicate', 'duplicate', 'created']);
    // The two resent ids' events (revisions 0 and 8, named by the id index); the snapshot, taken at revision 250
    // (the load before the last batch), checked; then what follows it. Nothing from the start.
    expect(reads).toEqual([0, 8, 250, 251]);
  });

  it('decides a mixed batch of 100 over several subscriptions as if each event came alone, and the same again after a restart', async () => {
    const [a, b] = [await subscribe(), await subscribe()];
    await report([event(a, 'm-old', { quantity: '2' })]).expect(200);
    // 87 more events of 0.01, alternately on a (44) and b (43), all new.
    const bulk = Array.from({ length: 87 }, (_, k) => event(k % 2 === 0 ? a : b, `m-bulk-${k}`, { quantity: '0.01' }));
    const batch = [
      event(a, 'm-1', { quantity: '1.5' }),
      event(b, 'm-2', { quantity: 2, timestamp: '2026-03-16T09:00:00+01:00' }),
      event(a, 'm-1', { quantity: '1.5' }), // the same event again in the request
      event(a, 'm-1', { quantity: '9' }), // the same id with other details
      event(b, 'm-old', { quantity: '2' }), // stored on a by an earlier request
      event(a, 'm-old', { quantity: '2' }), // resent to a
      event(b, 'm-1', { quantity: '1.5' }), // stored on a by this request
      event(a, 'm-3', { quantity: '-1' }),
      event(a, 'm-4', { meter_code: 'storage_gb', quantity: '0.25' }),
      event('sub_nope', 'm-5'),
      event(b, 'm-6', { timestamp: '2026-04-20T10:00:00Z' }), // the next period
      event(a, 'm-7', { timestamp: '2026-03-14T10:00:00Z' }), // before the start
      event(b, 'm-8', { timestamp: 'yesterday' }),
      ...bulk,
    ];
    const rejections = { 3: 'event_id_conflict', 4: 'event_id_conflict', 6: 'event_id_conflict', 7: 'invalid_quantity', 9: 'subscription_not_found', 11: 'timestamp_out_of_period', 12: 'invalid_timestamp' } as Record<number, string>;
    const answers = (response: request.Response) => (response.body as { results: { status: string; error?: { code: string } }[] }).results.map((r) => r.error?.code ?? r.status);
    const first = await report(batch);
    expect(first.status).toBe(207);
    expect(first.body).toMatchObject({ created: 91, duplicates: 2, rejected: 7 });
    expect(answers(first)).toEqual(batch.map((_, i) => rejections[i] ?? ([2, 5].includes(i) ? 'duplicate' : 'created')));
    const totals = async () => ({
      a: await period(a, 'api_calls'),
      aStorage: await period(a, 'storage_gb'),
      b: await period(b, 'api_calls'),
      bApril: await period(b, 'api_calls', '2026-04-15'),
    });
    // a: 2 (m-old) + 1.5 (m-1) + 44 × 0.01 = 3.94 over 46 events; b: 2 (m-2) + 43 × 0.01 = 2.43 over 44, and 1 in April.
    const expected = {
      a: [expect.objectContaining({ quantity: '3.9400', events: 46 })],
      aStorage: [expect.objectContaining({ quantity: '0.2500', events: 1 })],
      b: [expect.objectContaining({ quantity: '2.4300', events: 44 })],
      bApril: [expect.objectContaining({ quantity: '1.0000', events: 1, period_end: '2026-05-15' })],
    };
    expect(await totals()).toEqual(expected);
    // Resent, every stored event is a duplicate and every rejection the same; resent to a restarted service, too.
    const resentAnswers = batch.map((_, i) => rejections[i] ?? 'duplicate');
    const resent = await report(batch);
    expect(resent.body).toMatchObject({ created: 0, duplicates: 93, rejected: 7 });
    expect(answers(resent)).toEqual(resentAnswers);
    await service.close();
    service = await startTestService(service.dataDir, { clock });
    expect(answers(await report(batch))).toEqual(resentAnswers);
    expect(await totals()).toEqual(expected);
  });
});
