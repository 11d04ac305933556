import { AsyncLocalStorage } from 'node:async_hooks';
import request from 'supertest';
import { copySubscription } from '../../bench/subscription-copies';
import { fixedClock } from '../../infra/clock/clock';
import type { EventStore } from '../../infra/event-store/port';
import type { ReadStore } from '../../infra/read-store/port';
import { workerDeps } from '../../service/services';
import { type DueWork, STEP_SOURCES, type StepSource } from '../../workers/scheduled-steps';
import { testClockAdvancer } from '../../workers/scheduler';
import { defineCatalogue } from '../support/catalogue-fixtures';
import { connectAccounting, createKey, createOrganisation, openSandbox } from '../support/fixtures';
import { startTestService, tempDir } from '../support/test-service';

/** What one scheduled step asked of the ports: calls by port and method. */
type Calls = Record<string, number>;

const EVENT_STORE_CALLS = ['append', 'readStream', 'readStreamToFold', 'readStreamOfTypes', 'readAll', 'headPosition'];
const READ_STORE_CALLS = ['get', 'getMany', 'find', 'findAll', 'count', 'commit', 'deleteSomeWhere', 'checkpoint'];

const step = new AsyncLocalStorage<Calls>();

/** The port with each of `methods` counted against the step running (if any) when it is called. */
const counted = <Port extends object>(port: Port, name: string, methods: readonly string[]): Port =>
  new Proxy(port, {
    get: (target, property, receiver) => {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || !methods.includes(String(property))) return typeof value === 'function' ? value.bind(target) : value;
      return (...args: unknown[]) => {
        const calls = step.getStore();
        if (calls) calls[`${name}.${String(property)}`] = (calls[`${name}.${String(property)}`] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });

/** Each piece of work, and the work it says comes next, run inside a step of its own that records its calls. */
const recording = (sources: readonly StepSource[], record: (work: DueWork, calls: Calls) => void): StepSource[] => {
  const wrap = (work: DueWork): DueWork => ({
    ...work,
    run: async (caller) => {
      const calls: Calls = {};
      const done = await step.run(calls, () => work.run(caller));
      record(work, calls);
      return { ...done, next: done.next.map(wrap) };
    },
  });
  return sources.map((source) => ({
    name: source.name,
    dueWork: async function* (deps, org, until) {
      for await (const page of source.dueWork(deps, org, until)) yield page.map(wrap);
    },
  }));
};

/**
 * The cost of one renewal does not depend on how many other subscriptions the organisation has: a
 * sandbox of N subscriptions renewing on one date, its clock advanced past it, each scheduled step
 * run inside a context that counts every call it makes to the event store and the read store (both
 * ports wrapped, in a process that has kept no state of those streams: the wrapped store is a log of
 * its own to the handlers). Every step of a kind makes the same calls, and the same at N = 100 as at
 * N = 5,000. A roll-over decided on the state the process keeps of its subscription (a bounded cache
 * of 5,000 streams) instead of the one its renewal invoice's step left read the stream again once the
 * other subscriptions and invoices had pushed it out: at 5,000 the steps were not alike. The run's
 * paging of its subjects is outside any step.
 */
describe('one scheduled step costs the same whatever the organisation’s size', () => {
  const clock = fixedClock(new Date('2026-03-15T10:00:00.000Z'));

  const stepCalls = async (subscriptions: number) => {
    const service = await startTestService(tempDir('step-work'), { clock, delivery: false });
    try {
      const live = await createOrganisation(service, { can_create_accounting_contacts: true });
      const sandbox = await openSandbox(service, live.id);
      await connectAccounting(service, sandbox.id);
      await defineCatalogue(service, sandbox.id);
      const { auth } = await createKey(service, sandbox.id, ['subscriptions:write', 'customers:write']);
      await request(service.app).post('/v1/customers').set(auth).send({ code: 'C1', name: 'Customer One' });
      const created = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', 'template').send({ customer_code: 'C1', plan_code: 'flat' });
      expect(created.status).toBe(201);
      const { store } = service.services;
      await copySubscription(store, { subscriptionId: created.body.id as string, customerId: created.body.customer as string }, subscriptions - 1);
      await service.services.projections.waitFor(await store.headPosition(), 60_000);

      const base = workerDeps(service.services);
      const deps = { ...base, store: counted<EventStore>(base.store, 'events', EVENT_STORE_CALLS), readStore: counted<ReadStore>(base.readStore, 'reads', READ_STORE_CALLS) };
      const byKind = new Map<string, Calls[]>();
      const sources = recording(STEP_SOURCES, (work, calls) => byKind.set(work.kind, [...(byKind.get(work.kind) ?? []), calls]));
      // Renews on 15 Apr: the renewal invoice on 8 Apr (7 lead days), the roll-over on the 15th.
      await testClockAdvancer(deps, { pushWaitMs: 0, sources }).advance(sandbox.id, '2026-04-15', { actor: { type: 'admin' }, requestId: null });
      return byKind;
    } finally {
      await service.close();
    }
  };

  it('counts the reads and writes of every step at N = 100 and N = 5,000: equal', async () => {
    const small = await stepCalls(100);
    const large = await stepCalls(5_000);
    expect([...small.keys()].sort()).toEqual(['renewal', 'renewal_invoice']);
    for (const [byKind, subscriptions] of [
      [small, 100],
      [large, 5_000],
    ] as const) {
      for (const calls of byKind.values()) {
        expect(calls).toHaveLength(subscriptions);
        // Every step of a kind alike.
        expect(new Set(calls.map((c) => JSON.stringify(c))).size).toBe(1);
      }
    }
    const perKind = (byKind: Map<string, Calls[]>) => Object.fromEntries([...byKind].map(([kind, calls]) => [kind, calls[0]]));
    expect(perKind(large)).toEqual(perKind(small));
    // What a renewal costs: its subscription read once, its invoice's (new) stream looked at, two appends; the roll-over, an append.
    expect(perKind(small)).toEqual({
      renewal_invoice: { 'events.readStreamToFold': 2, 'events.append': 2 },
      renewal: { 'events.append': 1 },
    });
  }, 180_000);
});
