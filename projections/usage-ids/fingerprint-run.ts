import { closeSync, fstatSync, openSync, read, readSync } from 'node:fs';
import { type FileHandle, open, rename } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { Fingerprint } from '../../domain/shared/fingerprint';
import type { FingerprintArrays } from './fingerprint-table';

/**
 * A run: (fingerprint, value) pairs sorted by fingerprint halves then value, in a file written once
 * and never changed. Held in memory: a filter (about 1.25 bytes a pair) that answers most lookups of
 * a pair it does not hold, and a directory of where each range of fingerprints starts (about 0.25
 * bytes a pair), so a lookup that passes the filter reads one range of about 16 pairs (200 bytes).
 *
 * The file: a 32-byte header (the magic, the directory's bits, the pairs and the filter's blocks),
 * the pairs as three 32-bit words each (high, low, value), the directory (a pair index per range and
 * one past the last), the filter's blocks; in this machine's byte order, as the snapshot.
 */
const MAGIC = 'UER1';
const HEADER_BYTES = 32;
const PAIR_WORDS = 3;
const PAIR_BYTES = PAIR_WORDS * 4;
/** Pairs a directory range holds on average. */
const PER_RANGE = 16;
/** A blocked Bloom filter: each pair sets 7 bits in one 512-bit block; 10 bits a pair keep about 1 % of absent pairs passing. */
const FILTER_BITS_A_PAIR = 10;
const BLOCK_WORDS = 16;
const PROBES = 7;
/** Pairs read or written at a time while merging or writing. */
const CHUNK_PAIRS = 65_536;

const NONE: readonly number[] = [];
const readAt = promisify(read);

const directoryBits = (pairs: number) => Math.min(26, Math.max(0, Math.ceil(Math.log2(pairs / PER_RANGE))));
const rangeOf = (high: number, bits: number) => (bits === 0 ? 0 : high >>> (32 - bits));
const filterBlocks = (pairs: number) => Math.max(1, Math.ceil((pairs * FILTER_BITS_A_PAIR) / (BLOCK_WORDS * 32)));

/** Sets (or, with `test`, checks) the pair's bits: the block from the low half, the bits from the high half. */
const filterProbe = (filter: Uint32Array, blocks: number, high: number, low: number, test: boolean): boolean => {
  const base = (low % blocks) * BLOCK_WORDS;
  const step = ((high >>> 9) & 511) | 1;
  let bit = high & 511;
  for (let probe = 0; probe < PROBES; probe++, bit = (bit + step) & 511) {
    const word = base + (bit >>> 5);
    const mask = 1 << (bit & 31);
    if (!test) filter[word]! |= mask;
    else if ((filter[word]! & mask) === 0) return false;
  }
  return true;
};

const bytesOf = (words: Uint32Array, count = words.length) => Buffer.from(words.buffer, words.byteOffset, count * 4);
/** Whether pair a (at word index i of x) sorts before pair b (at j of y). */
const before = (x: Uint32Array, i: number, y: Uint32Array, j: number) =>
  x[i]! !== y[j]! ? x[i]! < y[j]! : x[i + 1]! !== y[j + 1]! ? x[i + 1]! < y[j + 1]! : x[i + 2]! < y[j + 2]!;

/** Writes pairs given in order to `path` whole or not at all (a file beside it, synced, then renamed); a pair given twice is written once. */
class RunWriter {
  private readonly chunk = new Uint32Array(CHUNK_PAIRS * PAIR_WORDS);
  private inChunk = 0;
  private pairs = 0;
  private readonly last = new Uint32Array(PAIR_WORDS);
  private readonly bits: number;
  private readonly directory: Uint32Array;
  /** The next range whose start is not set yet. */
  private nextRange = 0;
  private readonly blocks: number;
  private readonly filter: Uint32Array;

  private constructor(
    private readonly file: FileHandle,
    private readonly path: string,
    atMost: number,
  ) {
    this.bits = directoryBits(atMost);
    this.directory = new Uint32Array(2 ** this.bits + 1);
    this.blocks = filterBlocks(atMost);
    this.filter = new Uint32Array(this.blocks * BLOCK_WORDS);
  }

  /** For at most `atMost` pairs (the directory and filter are sized for it). */
  static async create(path: string, atMost: number): Promise<RunWriter> {
    return new RunWriter(await open(`${path}.writing`, 'w'), path, atMost);
  }

  get full(): boolean {
    return this.inChunk === CHUNK_PAIRS;
  }

  /** Adds the pair at word `at` of `words`; the caller flushes when `full`. */
  push(words: Uint32Array, at: number): void {
    const high = words[at]!;
    const low = words[at + 1]!;
    const value = words[at + 2]!;
    const { chunk, last } = this;
    if (this.pairs > 0 && high === last[0] && low === last[1] && value === last[2]) return;
    last[0] = high;
    last[1] = low;
    last[2] = value;
    for (const range = rangeOf(high, this.bits); this.nextRange <= range; this.nextRange++) this.directory[this.nextRange] = this.pairs;
    filterProbe(this.filter, this.blocks, high, low, false);
    const to = this.inChunk * PAIR_WORDS;
    chunk[to] = high;
    chunk[to + 1] = low;
    chunk[to + 2] = value;
    this.inChunk++;
    this.pairs++;
  }

  async flush(): Promise<void> {
    if (this.inChunk === 0) return;
    const written = this.pairs - this.inChunk;
    await this.file.write(bytesOf(this.chunk, this.inChunk * PAIR_WORDS), 0, this.inChunk * PAIR_BYTES, HEADER_BYTES + written * PAIR_BYTES);
    this.inChunk = 0;
  }

  async finish(): Promise<void> {
    try {
      await this.flush();
      for (; this.nextRange < this.directory.length; this.nextRange++) this.directory[this.nextRange] = this.pairs;
      const header = Buffer.alloc(HEADER_BYTES);
      header.write(MAGIC, 0, 'latin1');
      header.writeUInt32LE(this.bits, 4);
      header.writeDoubleLE(this.pairs, 8);
      header.writeDoubleLE(this.blocks, 16);
      let at = HEADER_BYTES + this.pairs * PAIR_BYTES;
      for (const part of [bytesOf(this.directory), bytesOf(this.filter)]) {
        await this.file.write(part, 0, part.length, at);
        at += part.length;
      }
      await this.file.write(header, 0, HEADER_BYTES, 0);
      await this.file.truncate(at);
      await this.file.sync();
    } finally {
      await this.file.close();
    }
    await rename(`${this.path}.writing`, this.path);
  }
}

/** The pairs of a table, sorted: bucketed by their high half's leading bits, then each bucket sorted in place. */
const sortedPairs = ({ high, low, values, used }: FingerprintArrays): Uint32Array => {
  const bits = directoryBits(used);
  const counts = new Uint32Array(2 ** bits + 1);
  for (let slot = 0; slot < values.length; slot++) if (values[slot] !== 0) counts[rangeOf(high[slot]!, bits) + 1]!++;
  for (let range = 1; range < counts.length; range++) counts[range]! += counts[range - 1]!;
  const pairs = new Uint32Array(used * PAIR_WORDS);
  const next = counts.slice();
  for (let slot = 0; slot < values.length; slot++) {
    if (values[slot] === 0) continue;
    const at = next[rangeOf(high[slot]!, bits)]!++ * PAIR_WORDS;
    pairs[at] = high[slot]!;
    pairs[at + 1] = low[slot]!;
    pairs[at + 2] = values[slot]! - 1;
  }
  // Insertion sort within each range (about 16 pairs).
  const pair = new Uint32Array(PAIR_WORDS);
  for (let range = 0; range + 1 < counts.length; range++) {
    for (let i = counts[range]! + 1; i < counts[range + 1]!; i++) {
      pair.set(pairs.subarray(i * PAIR_WORDS, (i + 1) * PAIR_WORDS));
      let j = i - 1;
      for (; j >= counts[range]! && before(pair, 0, pairs, j * PAIR_WORDS); j--) pairs.copyWithin((j + 1) * PAIR_WORDS, j * PAIR_WORDS, (j + 1) * PAIR_WORDS);
      pairs.set(pair, (j + 1) * PAIR_WORDS);
    }
  }
  return pairs;
};

/** A run file open for lookups; its pairs stay on disk. */
export class FingerprintRun {
  private readonly scratch: Uint32Array;
  /** Lookups that read a range from disk (those the filter let through). */
  rangesRead = 0;

  private constructor(
    readonly path: string,
    private readonly fd: number,
    readonly pairs: number,
    private readonly bits: number,
    private readonly directory: Uint32Array,
    private readonly blocks: number,
    private readonly filter: Uint32Array,
  ) {
    let widest = 0;
    for (let range = 0; range + 1 < directory.length; range++) widest = Math.max(widest, directory[range + 1]! - directory[range]!);
    this.scratch = new Uint32Array(widest * PAIR_WORDS);
  }

  /** Writes a table's pairs as a run. */
  static async write(path: string, table: FingerprintArrays): Promise<void> {
    const pairs = sortedPairs(table);
    const writer = await RunWriter.create(path, table.used);
    for (let at = 0; at < pairs.length; at += PAIR_WORDS) {
      writer.push(pairs, at);
      if (writer.full) await writer.flush();
    }
    await writer.finish();
  }

  /** Writes the pairs of all the runs as one, in a streaming merge (a chunk of each at a time). */
  static async merge(path: string, runs: readonly FingerprintRun[]): Promise<void> {
    const writer = await RunWriter.create(path, runs.reduce((sum, run) => sum + run.pairs, 0));
    const cursors = await Promise.all(runs.map((run) => run.cursor()));
    for (;;) {
      let least: RunCursor | null = null;
      for (const cursor of cursors) {
        if (cursor.done) continue;
        if (!least || before(cursor.chunk, cursor.at, least.chunk, least.at)) least = cursor;
      }
      if (!least) break;
      writer.push(least.chunk, least.at);
      if (writer.full) await writer.flush();
      if (!least.step()) await least.refill();
    }
    await writer.finish();
  }

  /** The run at `path`; null when the file is missing, not whole, or of another layout. */
  static open(path: string): FingerprintRun | null {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      const header = Buffer.alloc(HEADER_BYTES);
      if (readSync(fd, header, 0, HEADER_BYTES, 0) !== HEADER_BYTES || header.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a run');
      const bits = header.readUInt32LE(4);
      const pairs = header.readDoubleLE(8);
      const blocks = header.readDoubleLE(16);
      const directory = new Uint32Array(2 ** bits + 1);
      const filter = new Uint32Array(blocks * BLOCK_WORDS);
      const directoryAt = HEADER_BYTES + pairs * PAIR_BYTES;
      if (fstatSync(fd).size !== directoryAt + directory.byteLength + filter.byteLength) throw new Error('not whole');
      readSync(fd, bytesOf(directory), 0, directory.byteLength, directoryAt);
      readSync(fd, bytesOf(filter), 0, filter.byteLength, directoryAt + directory.byteLength);
      if (directory[directory.length - 1] !== pairs) throw new Error('not whole');
      return new FingerprintRun(path, fd, pairs, bits, directory, blocks, filter);
    } catch {
      closeSync(fd);
      return null;
    }
  }

  /** The values held with the fingerprint: none read from disk for most absent ones (the filter), else one range. */
  valuesOf(fingerprint: Fingerprint): readonly number[] {
    if (!filterProbe(this.filter, this.blocks, fingerprint.high, fingerprint.low, true)) return NONE;
    const range = rangeOf(fingerprint.high, this.bits);
    const start = this.directory[range]!;
    const count = this.directory[range + 1]! - start;
    if (count === 0) return NONE;
    this.rangesRead++;
    readSync(this.fd, bytesOf(this.scratch), 0, count * PAIR_BYTES, HEADER_BYTES + start * PAIR_BYTES);
    let found: number[] | null = null;
    for (let at = 0; at < count * PAIR_WORDS; at += PAIR_WORDS) {
      if (this.scratch[at] === fingerprint.high && this.scratch[at + 1] === fingerprint.low) (found ??= []).push(this.scratch[at + 2]!);
    }
    return found ?? NONE;
  }

  /** Bytes it holds in memory. */
  get heldBytes(): number {
    return this.directory.byteLength + this.filter.byteLength + this.scratch.byteLength;
  }

  close(): void {
    closeSync(this.fd);
  }

  private async cursor(): Promise<RunCursor> {
    const cursor = new RunCursor(this.fd, this.pairs);
    await cursor.refill();
    return cursor;
  }
}

/** Reads a run's pairs in order, a chunk at a time: the current pair is at word `at` of `chunk`. */
class RunCursor {
  readonly chunk = new Uint32Array(CHUNK_PAIRS * PAIR_WORDS);
  at = 0;
  private inChunk = 0;
  private read = 0;

  constructor(
    private readonly fd: number,
    private readonly pairs: number,
  ) {}

  get done(): boolean {
    return this.at >= this.inChunk * PAIR_WORDS;
  }

  /** Moves to the next pair; false when the chunk is used up (then `refill`). */
  step(): boolean {
    this.at += PAIR_WORDS;
    return this.at < this.inChunk * PAIR_WORDS;
  }

  /** Reads the next chunk (none left: `done`). */
  async refill(): Promise<void> {
    const count = Math.min(CHUNK_PAIRS, this.pairs - this.read);
    this.at = 0;
    this.inChunk = count;
    if (count === 0) return;
    const { bytesRead } = await readAt(this.fd, bytesOf(this.chunk), 0, count * PAIR_BYTES, HEADER_BYTES + this.read * PAIR_BYTES);
    if (bytesRead !== count * PAIR_BYTES) throw new Error('a run file was cut short while merging');
    this.read += count;
  }
}
