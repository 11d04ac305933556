import { loadConfig } from '../../infra/config';
import { openDatabase } from '../../infra/sqlite/open-database';
import { objectHistory } from '../../projections/queries/history';
import { databaseFile, openEventStore } from '../services';
import { timelineLine } from './timeline';
import { runCommand } from './run-command';

/**
 * `npm run history -- <org> <id>`: the event history of one object as a readable timeline (what
 * GET /admin/v1/organisations/{org}/streams/{id}/events answers), read from the log itself, so it
 * works with the service running or stopped. Exit 1 when the organisation has no such object.
 */
const main = async (): Promise<number> => {
  const [organisationId, objectId] = process.argv.slice(2);
  if (!organisationId || !objectId) {
    process.stderr.write('usage: npm run history -- <org_…> <id>   (sub_…, inv_…, cus_…, org_…, key_…, plan_…, chg_…, mtr_…, cn_…)\n');
    return 2;
  }
  const config = loadConfig();
  const db = openDatabase(databaseFile(config.DATA_DIR));
  const store = await openEventStore(config, db);
  try {
    const events = await objectHistory(store, organisationId, objectId);
    if (!events) {
      process.stderr.write(`organisation ${organisationId} has no object ${objectId}\n`);
      return 1;
    }
    process.stdout.write(`${objectId}: ${events.length} event(s), oldest first\n`);
    for (const event of events) process.stdout.write(`${timelineLine(event)}\n`);
    return 0;
  } finally {
    await store.close();
    db.close();
  }
};

runCommand('history', main);
