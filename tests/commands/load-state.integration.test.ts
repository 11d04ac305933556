import { randomUUID } from 'node:crypto';
import { FOLD_PAGE, loadState } from '../../commands/plumbing/handle';
import { organisationDecider } from '../../domain/organisation/decider';
import type { OrganisationEvent } from '../../domain/organisation/events';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { testMetadata } from '../support/events';
import { organisationSettings } from '../support/organisation-fixtures';

const STREAM = 'organisation-org_long';
const toNew = (events: readonly OrganisationEvent[]) => events.map((event) => ({ id: randomUUID(), type: event.type, version: 1, data: event.data, metadata: testMetadata() }));
const limits = (subscriptions: number): OrganisationEvent => ({ type: 'PlanLimitsSet', data: { organisationId: 'org_long', customers: null, subscriptions } });

/** A stream of its creation and `changes` limit changes (the last sets the limit to `changes`). */
const longStream = async (changes: number) => {
  const store = new SqliteEventStore(openDatabase(':memory:'));
  const created: OrganisationEvent = { type: 'OrganisationCreated', data: { organisationId: 'org_long', livemode: true, liveOrganisationId: null, settings: organisationSettings } };
  await store.append(STREAM, toNew([created, ...Array.from({ length: changes }, (_, n) => limits(n + 1))]), 'no_stream');
  return store;
};

describe('loading a stream longer than a page', () => {
  it('folds it a page at a time to the state and revision of a fold in one go, the loop turning between pages', async () => {
    const events = 2 * FOLD_PAGE + 10;
    const store = await longStream(events - 1);
    const reads: number[] = [];
    const readStreamToFold = store.readStreamToFold.bind(store);
    store.readStreamToFold = async (streamId, from, limit) => {
      const page = await readStreamToFold(streamId, from, limit);
      reads.push(page.length);
      return page;
    };
    let fired = false;
    const firedAt: boolean[] = [];
    setImmediate(() => (fired = true));
    const decider = { ...organisationDecider, evolve: (state: Parameters<typeof organisationDecider.evolve>[0], event: OrganisationEvent) => (firedAt.push(fired), organisationDecider.evolve(state, event)) };

    const loaded = await loadState(store, STREAM, decider);
    const whole = (await readStreamToFold(STREAM)).map((event) => event as unknown as OrganisationEvent).reduce(organisationDecider.evolve, organisationDecider.initialState());
    expect(loaded).toEqual({ state: whole, revision: events - 1, position: BigInt(events), mark: expect.anything() });
    expect(reads).toEqual([FOLD_PAGE, FOLD_PAGE, 10]);
    // Work waiting for the loop ran while the load went on: after the first page, before the second.
    expect(firedAt.slice(0, FOLD_PAGE).every((seen) => !seen)).toBe(true);
    expect(firedAt[FOLD_PAGE]).toBe(true);
    await store.close();
  });

  it('folds only what was appended after a loaded state, a page at a time too', async () => {
    const store = await longStream(10);
    const first = await loadState(store, STREAM, organisationDecider);
    await store.append(STREAM, toNew(Array.from({ length: FOLD_PAGE + 5 }, (_, n) => limits(100 + n))), first.revision);

    const later = await loadState(store, STREAM, organisationDecider, first);
    expect(later).toEqual(await loadState(store, STREAM, organisationDecider));
    expect(later.revision).toBe(10 + FOLD_PAGE + 5);
    await store.close();
  });
});
