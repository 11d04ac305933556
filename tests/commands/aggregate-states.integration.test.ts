import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { AggregateStates } from '../../commands/plumbing/aggregate-states';
import { handleDecision, type Loaded, loadState } from '../../commands/plumbing/handle';
import { organisationDecider } from '../../domain/organisation/decider';
import type { OrganisationEvent } from '../../domain/organisation/events';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { testMetadata } from '../support/events';
import { organisationSettings } from '../support/organisation-fixtures';
import { tempDir } from '../support/test-service';

const STREAMS = ['organisation-org_a', 'organisation-org_b'];
const created = (organisationId: string): OrganisationEvent => ({
  type: 'OrganisationCreated',
  data: { organisationId, livemode: true, liveOrganisationId: null, settings: organisationSettings },
});
const limits = (subscriptions: number): OrganisationEvent => ({ type: 'PlanLimitsSet', data: { organisationId: 'org', customers: null, subscriptions } });

/** Any organisation event after its creation, with data its schema accepts. */
const laterEvent: fc.Arbitrary<OrganisationEvent> = fc.oneof(
  fc.string({ maxLength: 8 }).map((name): OrganisationEvent => ({ type: 'OrganisationSettingsChanged', data: { organisationId: 'org', changes: { name } } })),
  fc.integer({ min: 0, max: 50 }).map(limits),
  fc.constant<OrganisationEvent>({ type: 'AccountingConnected', data: { organisationId: 'org', tenantId: 't1', tenantName: 'T', accounts: [{ code: '200', name: 'Sales', type: 'revenue' }] } }),
  fc.constant<OrganisationEvent>({ type: 'AccountsMapped', data: { organisationId: 'org', revenue: '200', usageRevenue: null } }),
  fc.constant<OrganisationEvent>({ type: 'AccountingDisconnected', data: { organisationId: 'org', tenantId: 't1' } }),
);

type Step =
  | { kind: 'own'; stream: number; events: OrganisationEvent[] }
  | { kind: 'other'; stream: number; events: OrganisationEvent[] }
  | { kind: 'load'; stream: number };
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('own' as const), stream: fc.integer({ min: 0, max: 1 }), events: fc.array(laterEvent, { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('other' as const), stream: fc.integer({ min: 0, max: 1 }), events: fc.array(laterEvent, { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('load' as const), stream: fc.integer({ min: 0, max: 1 }) }),
);

const open = () => new SqliteEventStore(openDatabase(':memory:'));
/** This process's store and another process's, on one file. */
const openTwo = () => {
  const file = join(tempDir('kept-states'), 'log.sqlite');
  return [new SqliteEventStore(openDatabase(file)), new SqliteEventStore(openDatabase(file))] as const;
};
/** What a load folded, without the mark the store took for it. */
const folded = ({ mark: _mark, ...loaded }: Loaded<unknown>) => loaded;
const toNew = (events: readonly OrganisationEvent[]) => events.map((event) => ({ id: randomUUID(), type: event.type, version: 1, data: event.data, metadata: testMetadata() }));
/** This process's write: load through the kept states, decide `events`, append at the loaded revision. */
const own = (store: SqliteEventStore, states: AggregateStates, streamId: string, events: OrganisationEvent[]) =>
  handleDecision(store, streamId, organisationDecider, () => ({ events, result: null }), testMetadata(), undefined, states.source(streamId, organisationDecider));

describe('aggregate states kept between requests', () => {
  it('always fold to exactly the state a fold of the whole stream gives, whoever appended and whatever was evicted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), fc.integer({ min: 1, max: 3 }), async (steps, capacity) => {
        const [store, other] = openTwo();
        const states = new AggregateStates(store, capacity);
        for (const [i, streamId] of STREAMS.entries()) await store.append(streamId, toNew([created(`org_${i}`)]), 'no_stream');
        for (const s of steps) {
          const streamId = STREAMS[s.stream]!;
          if (s.kind === 'own') await own(store, states, streamId, s.events);
          else if (s.kind === 'other') await other.append(streamId, toNew(s.events), 'any');
          else await states.load(streamId, organisationDecider);
          for (const id of STREAMS) expect(folded(await states.load(id, organisationDecider))).toEqual(folded(await loadState(store, id, organisationDecider)));
        }
        // Dropped a tenth of the capacity at a time (at least one).
        expect(states.size).toBeLessThanOrEqual(capacity + Math.ceil(capacity / 10));
      }),
      { numRuns: 60 },
    );
  });

  it('read nothing while the log is known unchanged, then only the events after the state this process committed, and never serve an older state', async () => {
    const [store, other] = openTwo();
    const states = new AggregateStates(store);
    const streamId = STREAMS[0]!;
    const reads: number[] = [];
    const readStreamToFold = store.readStreamToFold.bind(store);
    store.readStreamToFold = (id, from) => {
      reads.push(from ?? 0);
      return readStreamToFold(id, from);
    };
    await own(store, states, streamId, [created('org_a')]);
    await own(store, states, streamId, [limits(3), limits(4)]);
    reads.length = 0;
    // Nothing was appended since this process's own append, and no other connection committed: no read.
    expect(await states.load(streamId, organisationDecider)).toMatchObject({ revision: 2, state: { planLimits: { subscriptions: 4 } } });
    expect(reads).toEqual([]);
    // Another process appends to another stream: the log changed, so the kept state is read from where it stands.
    await other.append(STREAMS[1]!, toNew([created('org_b')]), 'no_stream');
    const loaded = await states.load(streamId, organisationDecider);
    // Revisions 0–2 are known: only what follows is read, and then no more until the log changes again.
    expect(reads).toEqual([3]);
    expect(loaded).toMatchObject({ revision: 2, state: { planLimits: { subscriptions: 4 } } });
    await states.load(streamId, organisationDecider);
    expect(reads).toEqual([3]);
    // A write to it through this connection, not through the kept states, is seen too.
    await store.append(streamId, toNew([limits(6)]), 2);
    expect(await states.load(streamId, organisationDecider)).toMatchObject({ revision: 3, state: { planLimits: { subscriptions: 6 } } });
    expect(reads).toEqual([3, 3]);
    // A load that finishes later with an older view never replaces the newer state.
    const committed = states.source(streamId, organisationDecider);
    committed.committed({ state: organisationDecider.initialState(), revision: 1 });
    expect((await states.load(streamId, organisationDecider)).revision).toBe(3);
  });

  it('retry a conflict with another writer on the log as it now stands, and heal a kept state that ran ahead of the log', async () => {
    const store = open();
    const states = new AggregateStates(store);
    const streamId = STREAMS[0]!;
    await own(store, states, streamId, [created('org_a'), limits(1)]);
    // Another process appends after this one last saw the stream.
    let otherWrote = false;
    const seen: (number | null)[] = [];
    const handled = await handleDecision(
      store,
      streamId,
      organisationDecider,
      (state) => {
        if (state.status !== 'open') throw new Error('not open');
        seen.push(state.planLimits.subscriptions);
        return { events: [limits((state.planLimits.subscriptions ?? 0) + 10)], result: null };
      },
      testMetadata(),
      async () => {
        if (otherWrote) return;
        otherWrote = true;
        await store.append(streamId, toNew([limits(5)]), 'any');
      },
      states.source(streamId, organisationDecider),
    );
    // The first decision saw 1 and was refused; the retry saw the other writer's 5.
    expect(seen).toEqual([1, 5]);
    expect(handled.state).toMatchObject({ planLimits: { subscriptions: 15 } });
    expect(folded(await states.load(streamId, organisationDecider))).toEqual(folded(await loadState(store, streamId, organisationDecider)));

    // A state claiming revisions the log does not hold (a commit that never landed) is dropped on the conflict it causes.
    states.source(streamId, organisationDecider).committed({ state: organisationDecider.initialState(), revision: 99 });
    const healed = await own(store, states, streamId, [limits(7)]);
    expect(healed.state).toMatchObject({ status: 'open', planLimits: { subscriptions: 7 } });
    expect(folded(await states.load(streamId, organisationDecider))).toEqual(folded(await loadState(store, streamId, organisationDecider)));
  });
});
