import { open, readFile, rename } from 'node:fs/promises';
import type { FingerprintLevelsState } from './fingerprint-levels';
import type { UsageBatchArrays } from './usage-batches';

/** What the usage event id index holds at one log position. */
export type UsageEventIdState = Readonly<{
  /** The log position it includes everything up to, and the id of the event there (0n and null: nothing read). */
  position: bigint;
  eventId: string | null;
  /** The position of the event before that one (0n: none), where a check of the log reads from. */
  before: bigint;
  /** The ids' fingerprints: the table in memory and the runs written out (file names beside the snapshot). */
  levels: FingerprintLevelsState;
  /** The batches the ids' values number. */
  batches: UsageBatchArrays;
  /** Per subscription number, the subscription and its organisation; the numbers a sandbox reset emptied. */
  subscriptions: readonly string[];
  organisations: readonly string[];
  reset: readonly number[];
  /** Each reset sandbox's highest generation (`SandboxGenerations`). */
  generations: readonly [string, number][];
}>;

type Header = Readonly<{ position: string; eventId: string | null; before: string; slots: number; used: number; runs: readonly string[]; batches: number; subscriptions: readonly string[]; organisations: readonly string[]; reset: readonly number[]; generations?: readonly [string, number][] }>;

/** The file's first 4 bytes; a layout of another version is not read. */
const MAGIC = 'UEI4';

const bytesOf = (array: Uint32Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

/**
 * Writes the state to `path` whole or not at all (a file beside it, synced, then renamed over it):
 * the magic, the header's length and the header (JSON), then the table's three arrays and the batches'
 * two, in this machine's byte order.
 */
export const writeSnapshot = async (path: string, state: UsageEventIdState): Promise<void> => {
  const { high, low, values, used } = state.levels.table;
  const header: Header = {
    position: String(state.position),
    eventId: state.eventId,
    before: String(state.before),
    slots: values.length,
    used,
    runs: state.levels.runs,
    batches: state.batches.count,
    subscriptions: state.subscriptions,
    organisations: state.organisations,
    reset: state.reset,
    generations: state.generations,
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const prefix = Buffer.alloc(8);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(headerBytes.length, 4);
  const written = `${path}.writing`;
  const file = await open(written, 'w');
  try {
    for (const part of [prefix, headerBytes, bytesOf(high), bytesOf(low), bytesOf(values), bytesOf(state.batches.subscriptions), bytesOf(state.batches.revisions)]) await file.writeFile(part);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(written, path);
};

/** The state a snapshot holds; null when there is none, or it is not whole (its length says so) or of another layout. */
export const readSnapshot = async (path: string): Promise<UsageEventIdState | null> => {
  let file: Buffer;
  try {
    file = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (file.length < 8 || file.toString('latin1', 0, 4) !== MAGIC) return null;
  const headerEnd = 8 + file.readUInt32LE(4);
  if (headerEnd > file.length) return null;
  const header = JSON.parse(file.toString('utf8', 8, headerEnd)) as Header;
  const arrayBytes = header.slots * 4;
  const batchBytes = header.batches * 4;
  if (file.length !== headerEnd + 3 * arrayBytes + 2 * batchBytes) return null;
  // Copied out of the file's buffer: a typed array needs its offset aligned.
  const array = (from: number, bytes: number) => new Uint32Array(file.buffer.slice(file.byteOffset + from, file.byteOffset + from + bytes));
  const tableArray = (k: number) => array(headerEnd + k * arrayBytes, arrayBytes);
  const batchArray = (k: number) => array(headerEnd + 3 * arrayBytes + k * batchBytes, batchBytes);
  return {
    position: BigInt(header.position),
    eventId: header.eventId,
    before: BigInt(header.before),
    levels: { table: { high: tableArray(0), low: tableArray(1), values: tableArray(2), used: header.used }, runs: header.runs },
    batches: { subscriptions: batchArray(0), revisions: batchArray(1), count: header.batches },
    subscriptions: header.subscriptions,
    organisations: header.organisations,
    reset: header.reset,
    // A snapshot from before they were kept: learnt again from what follows, as they were then.
    generations: header.generations ?? [],
  };
};
