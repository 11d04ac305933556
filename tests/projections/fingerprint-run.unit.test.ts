import * as fs from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Fingerprint, fingerprintOf } from '../../domain/shared/fingerprint';
import { FingerprintRun } from '../../projections/usage-ids/fingerprint-run';
import { FingerprintTable } from '../../projections/usage-ids/fingerprint-table';
import { tempDir } from '../support/test-service';

const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);

/** A table of `count` pairs from the texts `<prefix><n>`, some fingerprints held with two values. */
const tableOf = (prefix: string, count: number) => {
  const table = new FingerprintTable();
  const pairs: [Fingerprint, number][] = [];
  for (let n = 0; n < count; n++) {
    const fingerprint = fingerprintOf(`${prefix}${n}`);
    pairs.push([fingerprint, n % 1000]);
    if (n % 97 === 0) pairs.push([fingerprint, 5000 + n]);
  }
  for (const [fingerprint, value] of pairs) table.add(fingerprint, value);
  return { table, pairs };
};

const written = async (dir: string, name: string, table: FingerprintTable) => {
  const path = join(dir, name);
  await FingerprintRun.write(path, table.copy());
  return FingerprintRun.open(path)!;
};

describe('fingerprint run', () => {
  it('answers every fingerprint the table held with the same values, and none for those it did not', async () => {
    const { table, pairs } = tableOf('id-', 5000);
    const run = await written(tempDir('fingerprint-run'), 'run', table);

    expect(run.pairs).toBe(table.size);
    for (const [fingerprint] of pairs) expect(sorted(run.valuesOf(fingerprint))).toEqual(sorted(table.valuesOf(fingerprint)));
    for (let n = 0; n < 2000; n++) expect(run.valuesOf(fingerprintOf(`absent-${n}`))).toEqual([]);
    run.close();
  });

  it('reads nothing from disk for most fingerprints it does not hold (its filter), and one range for one it holds', async () => {
    const { table, pairs } = tableOf('id-', 20_000);
    const run = await written(tempDir('fingerprint-run'), 'run', table);
    for (let n = 0; n < 10_000; n++) run.valuesOf(fingerprintOf(`absent-${n}`));
    expect(run.rangesRead).toBeLessThan(300);
    const before = run.rangesRead;
    for (const [fingerprint] of pairs.slice(0, 100)) run.valuesOf(fingerprint);
    expect(run.rangesRead - before).toBe(100);
    run.close();
  });

  it('holds in memory about a tenth of what the table does', async () => {
    const { table } = tableOf('id-', 100_000);
    const run = await written(tempDir('fingerprint-run'), 'run', table);
    const tableBytes = table.copy().values.byteLength * 3;
    expect(run.heldBytes).toBeLessThan(tableBytes / 10);
    run.close();
  });

  it('merges runs into one holding each pair once, across chunks of the files', async () => {
    const dir = tempDir('fingerprint-run');
    const big = tableOf('id-', 70_000);
    const small = tableOf('id-', 3000);
    const other = tableOf('other-', 3000);
    const runs = [await written(dir, 'big', big.table), await written(dir, 'small', small.table), await written(dir, 'other', other.table)];
    await FingerprintRun.merge(join(dir, 'merged'), runs);
    const merged = FingerprintRun.open(join(dir, 'merged'))!;

    // The small table's pairs are all in the big one's.
    expect(merged.pairs).toBe(big.table.size + other.table.size);
    for (const [fingerprint] of [...big.pairs.filter((_, n) => n % 7 === 0), ...other.pairs]) {
      expect(sorted(merged.valuesOf(fingerprint))).toEqual(sorted([...big.table.valuesOf(fingerprint), ...other.table.valuesOf(fingerprint)]));
    }
    for (const run of [...runs, merged]) run.close();
  });

  it('writes and reads a run of no pairs', async () => {
    const run = await written(tempDir('fingerprint-run'), 'run', new FingerprintTable());
    expect(run.pairs).toBe(0);
    expect(run.valuesOf(fingerprintOf('a'))).toEqual([]);
    run.close();
  });

  it('opens nothing from a file that is missing, cut short or of another layout', async () => {
    const dir = tempDir('fingerprint-run');
    const run = await written(dir, 'run', tableOf('id-', 100).table);
    run.close();
    const whole = await readFile(join(dir, 'run'));

    expect(FingerprintRun.open(join(dir, 'missing'))).toBeNull();
    await writeFile(join(dir, 'short'), whole.subarray(0, whole.length - 1));
    expect(FingerprintRun.open(join(dir, 'short'))).toBeNull();
    await writeFile(join(dir, 'other'), Buffer.concat([Buffer.from('UEI3'), whole.subarray(4)]));
    expect(FingerprintRun.open(join(dir, 'other'))).toBeNull();
    // Nothing left beside the run while it was written.
    expect(fs.readdirSync(dir).sort()).toEqual(['other', 'run', 'short']);
  });
});
