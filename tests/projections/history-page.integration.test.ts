import { randomUUID } from 'node:crypto';
import type { EventStore, StoredEvent } from '../../infra/event-store/port';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { objectHistory, objectHistoryPage } from '../../projections/queries/history';
import { testMetadata } from '../support/events';

const ORG = 'org_1';
const CUSTOMER = 'cus_long';
const created = {
  type: 'CustomerImported',
  data: { customerId: CUSTOMER, organisationId: ORG, code: 'LONG', name: 'Long Ltd', firstName: null, lastName: null, email: null, accountingContactId: null, source: 'admin_import' },
};
const changed = (i: number) => ({ type: 'CustomerUpdated', data: { customerId: CUSTOMER, organisationId: ORG, changes: { name: `Name ${i}` } } });

/** The log, counting the events each read hands back. */
const counting = (store: EventStore) => {
  let read = 0;
  const counted: EventStore = Object.create(store) as EventStore;
  counted.readStream = async (...args) => {
    const events = await store.readStream(...args);
    read += events.length;
    return events;
  };
  return { store: counted, read: () => read, reset: () => (read = 0) };
};

describe('one object’s history, a page at a time', () => {
  const open = async (changes: number) => {
    const store = new SqliteEventStore(openDatabase(':memory:'));
    const events = [created, ...Array.from({ length: changes }, (_, i) => changed(i))];
    await store.append(`customer-${CUSTOMER}`, events.map((e) => ({ id: randomUUID(), version: 1, metadata: testMetadata({ organisationId: ORG }), ...e })), 'no_stream');
    return store;
  };
  it('gives the pages of the whole history, and reads only each page (and the stream’s first event)', async () => {
    const store = await open(499);
    const whole = (await objectHistory(store, ORG, CUSTOMER))!;
    const log = counting(store);
    const pages: StoredEvent[][] = [];
    for (let after: number | undefined; ; ) {
      log.reset();
      const page = await objectHistoryPage(log.store, ORG, CUSTOMER, after, 100);
      if (page === null || page === 'unknown_revision') throw new Error(`no page after ${String(after)}`);
      expect(log.read()).toBeLessThanOrEqual(100 + 3);
      pages.push(page.events);
      expect(page.hasMore).toBe(pages.flat().length < whole.length);
      if (!page.hasMore) break;
      after = page.events.at(-1)!.revision;
    }
    expect(pages).toHaveLength(5);
    expect(pages.flat()).toEqual(whole);
  });

  it('refuses a revision the stream does not have, and answers nothing of another organisation’s object', async () => {
    const store = await open(4);
    expect(await objectHistoryPage(store, ORG, CUSTOMER, 3, 25)).toMatchObject({ events: [{ revision: 4 }], hasMore: false });
    expect(await objectHistoryPage(store, ORG, CUSTOMER, 5, 25)).toBe('unknown_revision');
    expect(await objectHistoryPage(store, 'org_other', CUSTOMER, undefined, 25)).toBeNull();
    expect(await objectHistoryPage(store, 'org_other', CUSTOMER, 5, 25)).toBeNull();
    expect(await objectHistoryPage(store, ORG, 'cus_nothing', undefined, 25)).toBeNull();
  });
});
