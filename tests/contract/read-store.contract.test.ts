import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoReadStore } from '../../infra/read-store/mongo';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { describeReadStore } from './read-store.contract';

describeReadStore('sqlite', () => {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'read-')), 'billing.sqlite'));
  const store = new SqliteReadStore(db);
  store.close = () => {
    db.close();
    return Promise.resolve();
  };
  return Promise.resolve(store);
});

const mongoUrl = process.env.MONGO_URL;
if (mongoUrl) {
  describeReadStore('mongodb', () => MongoReadStore.connect(mongoUrl, 'billing_contract_tests'));
} else {
  describe.skip('ReadStore contract: mongodb (skipped: MONGO_URL not set)', () => {
    it('runs against MongoDB when MONGO_URL is set', () => undefined);
  });
}
