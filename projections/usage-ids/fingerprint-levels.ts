import { randomUUID } from 'node:crypto';
import { readdir, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Fingerprint } from '../../domain/shared/fingerprint';
import { FingerprintRun } from './fingerprint-run';
import { type FingerprintArrays, FingerprintTable } from './fingerprint-table';

export type FingerprintLevelsOptions = Readonly<{
  /** The directory its runs are written to, and the start of their file names there. */
  directory: string;
  prefix: string;
  /** Pairs the table in memory holds before it is written out as a run. */
  sealPairs: number;
  /** Told when a run's write or merge failed (the pairs stay in memory; the next seal tries again). */
  onError: (error: unknown) => void;
  /** Told when its runs changed (what a snapshot records): a table written out, or runs merged. */
  onRunsChanged: (change: RunsChange) => void;
}>;

/** A change of the runs: how many pairs the new run holds, how long it took, and the runs there are now. */
export type RunsChange = Readonly<{ change: 'written' | 'merged'; pairs: number; ms: number; runs: number }>;

/** What a snapshot records: the table in memory (a copy) and the runs' file names. */
export type FingerprintLevelsState = Readonly<{ table: FingerprintArrays; runs: readonly string[] }>;

const concat = (a: readonly number[], b: readonly number[]) => (b.length === 0 ? a : a.length === 0 ? b : [...a, ...b]);

/**
 * (fingerprint, value) pairs in levels, as a log-structured merge tree: the newest in a table in
 * memory; once it holds `sealPairs`, it is written out as a sorted run (a file the lookups read
 * through a filter and a directory held in memory, about 1.5 bytes a pair against the table's
 * 24-48), and the newest runs are merged while together at least half the one before, so a few
 * runs of doubling sizes hold every pair. The writes and merges run one at a time, beside the
 * lookups, which meanwhile read the full table. Without options it is the table alone.
 */
export class FingerprintLevels {
  private table: FingerprintTable;
  /** Full tables not yet written out, oldest first. */
  private readonly sealing: FingerprintTable[] = [];
  /** Oldest (largest) first. */
  private readonly runs: FingerprintRun[];
  private work: Promise<void> = Promise.resolve();
  /** While held, full tables are written out but runs not merged (a start reading the log, which merges would slow). */
  private mergesHeld = false;

  private constructor(
    private readonly options: FingerprintLevelsOptions | null,
    table: FingerprintTable,
    runs: FingerprintRun[],
  ) {
    this.table = table;
    this.runs = runs;
  }

  static empty(options: FingerprintLevelsOptions | null): FingerprintLevels {
    return new FingerprintLevels(options, new FingerprintTable(), []);
  }

  /** The levels a snapshot recorded; null when one of its runs is missing or not whole. */
  static restore(state: FingerprintLevelsState, options: FingerprintLevelsOptions | null): FingerprintLevels | null {
    const runs: FingerprintRun[] = [];
    for (const name of state.runs) {
      const run = options ? FingerprintRun.open(join(options.directory, name)) : null;
      if (!run) {
        for (const opened of runs) opened.close();
        return null;
      }
      runs.push(run);
    }
    return new FingerprintLevels(options, FingerprintTable.of(state.table), runs);
  }

  /** Adds the pair unless the table holds it already (a run may: one value of a fingerprint then shows twice). */
  add(fingerprint: Fingerprint, value: number): void {
    this.table.add(fingerprint, value);
    if (this.options && this.table.size >= this.options.sealPairs) {
      this.sealing.push(this.table);
      this.table = new FingerprintTable();
      void this.schedule(() => this.writeSealed());
    }
  }

  /** The values held with the fingerprint, in no particular order. */
  valuesOf(fingerprint: Fingerprint): readonly number[] {
    let found = this.table.valuesOf(fingerprint);
    for (const table of this.sealing) found = concat(found, table.valuesOf(fingerprint));
    for (const run of this.runs) found = concat(found, run.valuesOf(fingerprint));
    return found;
  }

  /** The pairs held in every level. */
  get size(): number {
    return this.table.size + this.sealing.reduce((sum, table) => sum + table.size, 0) + this.runs.reduce((sum, run) => sum + run.pairs, 0);
  }

  /** The pairs held in the table in memory. */
  get inTable(): number {
    return this.table.size;
  }

  /** What a snapshot records; null while a full table waits to be written out (its run's change is told). */
  state(): FingerprintLevelsState | null {
    if (this.sealing.length > 0) return null;
    return { table: this.table.copy(), runs: this.runs.map((run) => basename(run.path)) };
  }

  /** Deletes the run files neither held nor named in `kept` (a snapshot written): those merged away, or left by a crash. */
  prune(kept: readonly string[]): Promise<void> {
    const options = this.options;
    if (!options) return Promise.resolve();
    return this.schedule(async () => {
      const held = new Set([...kept, ...this.runs.map((run) => basename(run.path))]);
      const names = await readdir(options.directory);
      for (const name of names) if (name.startsWith(options.prefix) && !held.has(name)) await unlink(join(options.directory, name)).catch(() => undefined);
    });
  }

  /** Holds merges until `mergeDue`: runs pile up meanwhile, each written once. */
  holdMerges(): void {
    this.mergesHeld = true;
  }

  /** Merges the runs due, and from now on as they come. */
  mergeDue(): void {
    this.mergesHeld = false;
    if (this.options) void this.schedule(() => this.mergeRuns());
  }

  /** Waits for the writes and merges under way. */
  settled(): Promise<void> {
    return this.work;
  }

  async close(): Promise<void> {
    await this.work;
    for (const run of this.runs) run.close();
  }

  private schedule(task: () => Promise<void>): Promise<void> {
    this.work = this.work.then(task).catch((error: unknown) => this.options?.onError(error));
    return this.work;
  }

  /** Writes out each full table, then merges the runs due (unless merges are held). */
  private async writeSealed(): Promise<void> {
    const options = this.options!;
    while (this.sealing.length > 0) {
      const started = performance.now();
      const path = this.runPath();
      // A full table takes no more pairs: its arrays are read as they are.
      await FingerprintRun.write(path, this.sealing[0]!.contents());
      const run = this.opened(path);
      this.runs.push(run);
      this.sealing.shift();
      options.onRunsChanged({ change: 'written', pairs: run.pairs, ms: Math.round(performance.now() - started), runs: this.runs.length });
    }
    if (!this.mergesHeld) await this.mergeRuns();
  }

  /**
   * Merges the newest runs into one while together they are at least half the run before them, so
   * sizes stay doubling and the runs few (about log2 of the pairs over `sealPairs`); runs piled up
   * while merges were held are merged in one pass, each pair written once.
   */
  private async mergeRuns(): Promise<void> {
    let first = this.runs.length - 1;
    let pairs = this.runs[first]?.pairs ?? 0;
    while (first > 0 && pairs * 2 >= this.runs[first - 1]!.pairs) pairs += this.runs[--first]!.pairs;
    if (first >= this.runs.length - 1) return;
    const started = performance.now();
    const merging = this.runs.slice(first);
    const path = this.runPath();
    await FingerprintRun.merge(path, merging);
    const merged = this.opened(path);
    this.runs.splice(first, merging.length, merged);
    for (const run of merging) run.close();
    this.options!.onRunsChanged({ change: 'merged', pairs: merged.pairs, ms: Math.round(performance.now() - started), runs: this.runs.length });
  }

  private runPath(): string {
    return join(this.options!.directory, `${this.options!.prefix}${randomUUID()}`);
  }

  private opened(path: string): FingerprintRun {
    const run = FingerprintRun.open(path);
    if (!run) throw new Error(`the run just written cannot be read: ${path}`);
    return run;
  }
}
