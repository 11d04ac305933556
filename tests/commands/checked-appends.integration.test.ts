import { handleDecision, loadState } from '../../commands/plumbing/handle';
import { organisationDecider } from '../../domain/organisation/decider';
import type { OrganisationEvent } from '../../domain/organisation/events';
import { schemaFingerprint } from '../../domain/shared/event-definition';
import { eventCatalogue } from '../../domain/event-catalogue';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { testMetadata } from '../support/events';
import { organisationSettings } from '../support/organisation-fixtures';

const STREAM = 'organisation-org_1';
const created: OrganisationEvent = {
  type: 'OrganisationCreated',
  data: { organisationId: 'org_1', livemode: true, liveOrganisationId: null, settings: organisationSettings },
};

const open = async () => {
  const store = new SqliteEventStore(openDatabase(':memory:'));
  await handleDecision(store, STREAM, organisationDecider, () => ({ events: [created], result: null }), testMetadata());
  return store;
};
/** Appends what `decide` answers, as a handler does. */
const decideEvents = (store: SqliteEventStore, events: OrganisationEvent[]) =>
  handleDecision(store, STREAM, organisationDecider, () => ({ events, result: null }), testMetadata());

describe('appends check each event against its schema', () => {
  // A decider that builds data with a rest spread can carry a field its type does not name.
  const leaky = { type: 'OrganisationSettingsChanged', data: { organisationId: 'org_1', changes: { name: 'Renamed', apiKeyHint: 'secret' } } } as OrganisationEvent;

  it('stores, folds and answers the data a replay reads: a field the schema does not name is dropped everywhere', async () => {
    const store = await open();
    const handled = await decideEvents(store, [leaky]);
    const [stored] = await store.readStream(STREAM, 1);
    expect(stored!.data).toEqual({ organisationId: 'org_1', changes: { name: 'Renamed' } });
    expect(handled.events[0]!.data).toEqual(stored!.data);
    expect(handled.state).toEqual((await loadState(store, STREAM, organisationDecider)).state);
    expect(JSON.stringify(handled.state)).not.toContain('secret');
  });

  it('records the fingerprint of the schema it checked against', async () => {
    const store = await open();
    await decideEvents(store, [leaky]);
    const events = await store.readStream(STREAM);
    expect(events.map((e) => e.metadata.dataSchema)).toEqual(events.map((e) => schemaFingerprint(eventCatalogue.get(e.type)!)));
  });

  it('refuses a decision with an event its schema refuses, and appends none of its events', async () => {
    const store = await open();
    const broken = { type: 'PlanLimitsSet', data: { organisationId: 'org_1', customers: 'ten', subscriptions: null } } as unknown as OrganisationEvent;
    const fine: OrganisationEvent = { type: 'PlanLimitsSet', data: { organisationId: 'org_1', customers: 10, subscriptions: null } };
    await expect(decideEvents(store, [fine, broken])).rejects.toThrow();
    expect(await store.readStream(STREAM)).toHaveLength(1);
  });
});
