import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprintOf } from '../../domain/shared/fingerprint';
import { FingerprintLevels, type FingerprintLevelsOptions, type RunsChange } from '../../projections/usage-ids/fingerprint-levels';
import { tempDir } from '../support/test-service';

const levelsIn = (directory: string, told: { errors: unknown[]; changes: RunsChange[] }): FingerprintLevelsOptions => ({
  directory,
  prefix: 'ids.run-',
  sealPairs: 10,
  onError: (error) => void told.errors.push(error),
  onRunsChanged: (change) => void told.changes.push(change),
});
const addIds = (levels: FingerprintLevels, from: number, to: number) => {
  for (let n = from; n < to; n++) levels.add(fingerprintOf(`id-${n}`), n % 7);
};

describe('fingerprint levels', () => {
  it('writes each full table out as a run and merges the runs, answering as before throughout', async () => {
    const dir = tempDir('fingerprint-levels');
    const told = { errors: [] as unknown[], changes: [] as RunsChange[] };
    const levels = FingerprintLevels.empty(levelsIn(dir, told));
    addIds(levels, 0, 10);
    // Before the write finishes, the full table answers.
    expect(levels.valuesOf(fingerprintOf('id-3'))).toEqual([3]);
    for (let n = 10; n < 95; n += 10) {
      await levels.settled();
      addIds(levels, n, Math.min(n + 10, 95));
    }
    await levels.settled();

    expect(levels.size).toBe(95);
    expect(levels.inTable).toBe(5);
    for (let n = 0; n < 95; n++) expect(levels.valuesOf(fingerprintOf(`id-${n}`))).toEqual([n % 7]);
    expect(levels.valuesOf(fingerprintOf('id-95'))).toEqual([]);
    // Nine tables of 10, the newest runs merged while together at least half the one before: 80 and 10
    // (a merge of three runs in one pass, each pair written once).
    const { runs } = levels.state()!;
    expect(runs).toHaveLength(2);
    expect(told.changes.map(({ change, pairs, runs }) => [change, pairs, runs])).toEqual([
      ['written', 10, 1],
      ['written', 10, 2],
      ['merged', 20, 1],
      ['written', 10, 2],
      ['merged', 30, 1],
      ['written', 10, 2],
      ['written', 10, 3],
      ['merged', 50, 1],
      ['written', 10, 2],
      ['written', 10, 3],
      ['merged', 20, 2],
      ['written', 10, 3],
      ['merged', 80, 1],
      ['written', 10, 2],
    ]);
    expect(told.errors).toEqual([]);
    await levels.prune(runs);
    expect(readdirSync(dir).sort()).toEqual([...runs].sort());
    await levels.close();
  });

  it('holds merges while asked, then merges the runs piled up in one pass', async () => {
    const told = { errors: [] as unknown[], changes: [] as RunsChange[] };
    const levels = FingerprintLevels.empty(levelsIn(tempDir('fingerprint-levels'), told));
    levels.holdMerges();
    addIds(levels, 0, 50);
    await levels.settled();
    expect(levels.state()!.runs).toHaveLength(5);
    levels.mergeDue();
    await levels.settled();

    expect(told.changes.map(({ change, pairs, runs }) => [change, pairs, runs])).toEqual([...Array.from({ length: 5 }, (_, n) => ['written', 10, n + 1]), ['merged', 50, 1]]);
    for (let n = 0; n < 50; n++) expect(levels.valuesOf(fingerprintOf(`id-${n}`))).toEqual([n % 7]);
    await levels.close();
  });

  it('keeps a table it could not write out in memory, answering from it, and writes it with the next', async () => {
    const dir = join(tempDir('fingerprint-levels'), 'not-yet');
    const told = { errors: [] as unknown[], changes: [] as RunsChange[] };
    const levels = FingerprintLevels.empty(levelsIn(dir, told));
    addIds(levels, 0, 12);
    await levels.settled();

    expect(told.errors).toEqual([expect.objectContaining({ code: 'ENOENT' })]);
    expect(levels.valuesOf(fingerprintOf('id-4'))).toEqual([4]);
    // No snapshot while a full table is not written out.
    expect(levels.state()).toBeNull();

    mkdirSync(dir);
    addIds(levels, 12, 20);
    await levels.settled();
    expect(levels.state()!.runs).toHaveLength(1);
    for (let n = 0; n < 20; n++) expect(levels.valuesOf(fingerprintOf(`id-${n}`))).toEqual([n % 7]);
    await levels.close();
  });

  it('restores what a state named, and nothing when one of its runs is gone', async () => {
    const dir = tempDir('fingerprint-levels');
    const told = { errors: [] as unknown[], changes: [] as RunsChange[] };
    const levels = FingerprintLevels.empty(levelsIn(dir, told));
    addIds(levels, 0, 25);
    await levels.settled();
    const state = levels.state()!;
    await levels.close();

    const restored = FingerprintLevels.restore(state, levelsIn(dir, told))!;
    for (let n = 0; n < 25; n++) expect(restored.valuesOf(fingerprintOf(`id-${n}`))).toEqual([n % 7]);
    await restored.close();
    expect(FingerprintLevels.restore({ ...state, runs: [...state.runs, 'ids.run-gone'] }, levelsIn(dir, told))).toBeNull();
  });
});
