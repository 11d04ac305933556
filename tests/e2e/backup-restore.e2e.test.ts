import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Database } from '../../infra/sqlite/driver';
import { ensureBuilt, quickStartKey, runNode, runNodeAsync, type ServiceProcess, startServiceProcess } from '../support/service-process';
import { tempDir } from '../support/test-service';
import { until } from '../support/until';

type Answer = Readonly<{ at: number; status: number; id: string | null }>;

/** Operator writes without pause, four at a time, until stopped: customers imported into the organisation. */
const writeLoad = (service: ServiceProcess, token: string, org: string) => {
  const answers: Answer[] = [];
  let running = true;
  let n = 0;
  const writer = async () => {
    while (running) {
      const code = `LOAD-${++n}`;
      const response = await fetch(`${service.url}/admin/v1/organisations/${org}/customers`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ code, name: `Load ${code}` }),
      });
      const body = (await response.json()) as { id?: string };
      answers.push({ at: Date.now(), status: response.status, id: body.id ?? null });
    }
  };
  const writers = Array.from({ length: 4 }, writer);
  return {
    answers,
    stop: async () => {
      running = false;
      await Promise.all(writers);
    },
  };
};

/** The longest time between two answers within [from, to]: how long the service went without answering. */
const largestGap = (answers: readonly Answer[], from: number, to: number): number => {
  const times = answers.map((a) => a.at).filter((at) => at >= from && at <= to).sort((a, b) => a - b);
  return times.slice(1).reduce((gap, at, i) => Math.max(gap, at - times[i]!), 0);
};

const streamExists = async (service: ServiceProcess, token: string, org: string, id: string) =>
  (await fetch(`${service.url}/admin/v1/organisations/${org}/streams/${id}/events?limit=1`, { headers: { Authorization: `Bearer ${token}` } })).status === 200;

describe('npm run backup and npm run restore', () => {
  beforeAll(ensureBuilt, 120_000);

  it('backs up online under a write load; the restored directory starts with every write acknowledged before it, and rebuilds equal', async () => {
    const dataDir = tempDir('backup-source');
    // A first start makes the quick start's organisation; a table of 48 MB beside the service's makes the copy long enough to overlap the load.
    const first = await startServiceProcess({ DATA_DIR: dataDir });
    const key = await quickStartKey(first);
    expect(await first.stop()).toBe(0);
    const filler = new Database(join(dataDir, 'billing.sqlite'));
    filler.exec('CREATE TABLE test_filler (content BLOB)');
    const insert = filler.prepare('INSERT INTO test_filler VALUES (?)');
    filler.transaction(() => {
      for (let i = 0; i < 12_000; i++) insert.run(randomBytes(4096));
    })();
    filler.close();

    const service = await startServiceProcess({ DATA_DIR: dataDir });
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    const auth = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const org = ((await (await fetch(`${service.url}/v1/organisation`, { headers: auth })).json()) as { id: string }).id;
    const subscription = await fetch(`${service.url}/v1/subscriptions`, { method: 'POST', headers: { ...auth, 'Idempotency-Key': 'backup-sub' }, body: JSON.stringify({ customer_code: 'ACME', plan_code: 'api' }) });
    expect(subscription.status).toBe(201);
    const sub = ((await subscription.json()) as { id: string }).id;
    const usage = { events: ['u-1', 'u-2'].map((id) => ({ event_id: id, subscription: sub, meter_code: 'api_calls', quantity: '5' })) };
    expect((await (await fetch(`${service.url}/v1/usage_events`, { method: 'POST', headers: auth, body: JSON.stringify(usage) })).json()) as object).toMatchObject({ created: 2 });

    const load = writeLoad(service, token, org);
    await until('a second of load before the backup', () => load.answers.length > 0 && Date.now() - load.answers[0]!.at > 1000);
    const acknowledgedBefore = load.answers.filter((a) => a.status === 201).map((a) => a.id!);
    const backupFile = join(tempDir('backup-file'), 'billing.backup');
    const started = Date.now();
    const backup = await runNodeAsync('service/cli/backup.js', ['--out', backupFile], { DATA_DIR: dataDir });
    const ended = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await load.stop();
    expect(backup.stderr).toMatch(/copying database: \d+ pages in/);
    expect(backup.status).toBe(0);
    const position = Number(/the log up to event position (\d+), with demo-accounting\.sqlite, admin-token\n$/.exec(backup.stdout)?.[1]);
    expect(position).toBeGreaterThan(0);
    expect(load.answers.filter((a) => a.status !== 201)).toEqual([]);
    const during = load.answers.filter((a) => a.at >= started && a.at <= ended).length;
    // Timings are printed beside a baseline of the same run, never asserted.
    process.stdout.write(
      `backup of ${Math.round((12_000 * 4096) / 1e6)} MB under a write load: ${ended - started} ms, ${during} writes answered meanwhile; ` +
        `largest answer gap ${largestGap(load.answers, started, ended)} ms during it, ${largestGap(load.answers, 0, started)} ms in the second before\n`,
    );
    expect(await service.stop()).toBe(0);

    const restoredDir = join(tempDir('restored'), 'data');
    const restored = runNode('service/cli/restore.js', ['--from', backupFile, '--data-dir', restoredDir], {});
    expect(restored.stderr).toBe('');
    expect(restored.status).toBe(0);
    expect(restored.stdout).toContain(`the log up to event position ${position}`);
    expect(readdirSync(restoredDir).sort()).toEqual(['admin-token', 'billing.sqlite', 'demo-accounting.sqlite']);

    const again = await startServiceProcess({ DATA_DIR: restoredDir });
    try {
      expect(again.output()).not.toContain('service_test_');
      for (const id of acknowledgedBefore) expect(await streamExists(again, token, org, id)).toBe(true);
      // The usage id index is made again from the log: the ids reported before are duplicates.
      const resent = await fetch(`${again.url}/v1/usage_events`, { method: 'POST', headers: auth, body: JSON.stringify(usage) });
      expect(await resent.json()).toMatchObject({ created: 0, duplicates: 2 });
      // The invoice the subscription raised was pushed to the ledger the backup carried.
      const invoices = (await (await fetch(`${again.url}/v1/invoices?subscription=${sub}`, { headers: auth })).json()) as { data: { accounting: { sync_status: string } }[] };
      expect(invoices.data.map((invoice) => invoice.accounting.sync_status)).toEqual(['synced']);
      const rebuild = await fetch(`${again.url}/admin/v1/projections/rebuild`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ verify: true }) });
      expect(rebuild.status).toBe(202);
      const done = await until('the verified rebuild', async () => {
        const state = (await (await fetch(`${again.url}/admin/v1/projections/rebuild`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { status: string; differences: unknown[] | null };
        return state.status !== 'running' && state;
      }, 60_000);
      expect(done).toMatchObject({ status: 'switched', differences: [] });
    } finally {
      expect(await again.stop()).toBe(0);
    }
  }, 180_000);

  it('refuses a non-empty directory, a file that is not a backup and one that fails its integrity check, writing nothing', async () => {
    const dataDir = tempDir('backup-refusals');
    const service = await startServiceProcess({ DATA_DIR: dataDir });
    const backupFile = join(tempDir('backup-file'), 'good.backup');
    const made = runNode('service/cli/backup.js', ['--out', backupFile], { DATA_DIR: dataDir });
    expect(made.status).toBe(0);
    expect(runNode('service/cli/backup.js', ['--out', backupFile], { DATA_DIR: dataDir })).toMatchObject({ status: 2, stderr: `cannot back up: ${backupFile} already exists: name a new file\n` });
    expect(await service.stop()).toBe(0);

    const parent = tempDir('restore-refusals');
    const restore = (from: string, dir: string) => runNode('service/cli/restore.js', ['--from', from, '--data-dir', dir], {});
    const untouched = (dir: string) => {
      expect(existsSync(dir)).toBe(false);
      expect(readdirSync(dirname(dir)).filter((name) => name.includes('restoring'))).toEqual([]);
    };

    const occupied = join(parent, 'occupied');
    mkdirSync(occupied);
    writeFileSync(join(occupied, 'notes.txt'), 'keep me');
    expect(restore(backupFile, occupied)).toMatchObject({ status: 3, stderr: `cannot restore: ${occupied} is not empty: restore into a new or empty directory\n` });
    expect(readdirSync(occupied)).toEqual(['notes.txt']);

    const text = join(parent, 'notes.backup');
    writeFileSync(text, 'not a database at all, though long enough to have a header of sixteen bytes');
    const target = join(parent, 'target');
    expect(restore(text, target)).toMatchObject({ status: 4, stderr: `cannot restore: ${text} is not a backup of this service: not an SQLite database\n` });
    untouched(target);

    const otherDatabase = join(dataDir, 'demo-accounting.sqlite');
    expect(restore(otherDatabase, target)).toMatchObject({ status: 4, stderr: `cannot restore: ${otherDatabase} is not a backup of this service: it has no billing_backup table\n` });
    untouched(target);

    // A page in the middle of the file overwritten: what a bad disk or a copy cut short leaves.
    const damaged = join(parent, 'damaged.backup');
    const bytes = readFileSync(backupFile);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0x5a, pageSize * 3, pageSize * 4);
    writeFileSync(damaged, bytes);
    const refused = restore(damaged, target);
    expect(refused.status).toBe(5);
    expect(refused.stderr).toMatch(new RegExp(`^cannot restore: ${damaged} failed its integrity check: .+\\n$`));
    untouched(target);

    // The same directory takes the good backup once empty.
    expect(restore(backupFile, target).status).toBe(0);
  }, 120_000);
});
