import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreDbEventStore } from '../../infra/event-store/eventstoredb';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { describeEventStore } from './event-store.contract';

describeEventStore('sqlite', () => {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'events-')), 'billing.sqlite'));
  const store = new SqliteEventStore(db);
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    db.close();
  };
  return Promise.resolve(store);
});

const eventStoreUrl = process.env.EVENTSTORE_URL;
if (eventStoreUrl) {
  describeEventStore('eventstoredb', () => Promise.resolve(new EventStoreDbEventStore(eventStoreUrl)));
} else {
  describe.skip('EventStore contract: eventstoredb (skipped: EVENTSTORE_URL not set)', () => {
    it('runs against EventStoreDB when EVENTSTORE_URL is set', () => undefined);
  });
}
