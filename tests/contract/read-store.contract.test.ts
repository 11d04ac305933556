import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoReadStore } from '../../infra/read-store/mongo';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { generationName } from '../../infra/read-store/names';
import { openDatabase } from '../../infra/sqlite/open-database';
import { GenerationView } from '../../projections/engine/generations';
import { describeReadStore } from './read-store.contract';

const sqliteStore = () => {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'read-')), 'billing.sqlite'));
  const store = new SqliteReadStore(db);
  store.close = () => {
    db.close();
    return Promise.resolve();
  };
  return store;
};

describeReadStore('sqlite', () => Promise.resolve(sqliteStore()));

// The read models' generations sit on top of any adapter: seen through a generation, a store keeps the whole contract.
describeReadStore('sqlite, seen through generation 1', () =>
  Promise.resolve(new GenerationView(sqliteStore(), (collection) => generationName(collection, 1))),
);

const mongoUrl = process.env.MONGO_URL;
if (mongoUrl) {
  describeReadStore('mongodb', () => MongoReadStore.connect(mongoUrl, 'billing_contract_tests'));
} else {
  describe.skip('ReadStore contract: mongodb (skipped: MONGO_URL not set)', () => {
    it('runs against MongoDB when MONGO_URL is set', () => undefined);
  });
}
