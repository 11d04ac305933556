import { randomUUID } from 'node:crypto';
import { customerDecider } from '../../domain/customer/decider';
import type { CustomerEvent } from '../../domain/customer/events';
import { decodeEvent } from '../../domain/decode-event';
import { customerObject } from '../../domain/webhook/event-objects';
import type { EventStore, StoredEvent } from '../../infra/event-store/port';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { trackedObjects } from '../../workers/tracked-objects';
import { testMetadata } from '../support/events';

const STREAM = 'customer-cus_1';
const imported: CustomerEvent = {
  type: 'CustomerImported',
  data: { customerId: 'cus_1', organisationId: 'org_1', code: 'C1', name: 'One', firstName: null, lastName: null, email: null, accountingContactId: null, source: 'admin_import' },
};
const renamed = (i: number): CustomerEvent => ({ type: 'CustomerUpdated', data: { customerId: 'cus_1', organisationId: 'org_1', changes: { name: `Name ${i}` } } });

/** The log, counting the events its stream reads hand back. */
const counting = (store: EventStore) => {
  let read = 0;
  const counted = Object.create(store) as EventStore;
  counted.readStream = async (...args) => {
    const events = await store.readStream(...args);
    read += events.length;
    return events;
  };
  return { store: counted, read: () => read };
};

describe('the objects a webhook describes, before and after each event', () => {
  const open = async () => {
    const store = new SqliteEventStore(openDatabase(':memory:'));
    const events = [imported, ...Array.from({ length: 40 }, (_, i) => renamed(i))];
    await store.append(STREAM, events.map((e) => ({ id: randomUUID(), version: 1, metadata: testMetadata(), ...e })), 'no_stream');
    return { store, events: await store.readStream(STREAM) };
  };
  /** What folding the whole stream up to the event gives. */
  const expected = (events: readonly StoredEvent[], event: StoredEvent) => {
    const foldTo = (revision: number) =>
      events.filter((e) => e.revision <= revision).map((e) => decodeEvent(e) as unknown as CustomerEvent).reduce(customerDecider.evolve, customerDecider.initialState());
    return [customerObject(foldTo(event.revision - 1)), customerObject(foldTo(event.revision))];
  };

  it('folds each event of a stream onto the state kept after the one before: the stream is not read again', async () => {
    const { store, events } = await open();
    const log = counting(store);
    const objects = trackedObjects(log.store);
    for (const event of events) expect(await objects(event)).toEqual(expected(events, event));
    expect(log.read()).toBe(0);
  });

  it('reads only the events between the last it folded and the next, or from the start after a later one, with the same objects', async () => {
    const { store, events } = await open();
    const log = counting(store);
    const objects = trackedObjects(log.store);
    const everyTenth = events.filter((e) => e.revision % 10 === 5);
    for (const event of everyTenth) expect(await objects(event)).toEqual(expected(events, event));
    // Revisions 5, 15, 25, 35: the first from the start (5 events), each later one the 9 between.
    expect(log.read()).toBe(5 + 9 * (everyTenth.length - 1));
    // The same event again (a batch applied twice): folded from the start, not onto its own state.
    expect(await objects(everyTenth.at(-1)!)).toEqual(expected(events, everyTenth.at(-1)!));
    expect(log.read()).toBe(5 + 9 * (everyTenth.length - 1) + everyTenth.at(-1)!.revision);
  });

  it('describes no object of a stream webhooks do not follow', async () => {
    const { store, events } = await open();
    expect(await trackedObjects(store)({ ...events[0]!, streamId: 'organisation-org_1' })).toEqual([null, null]);
  });
});
