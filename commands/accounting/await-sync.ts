import { performance } from 'node:perf_hooks';
import { creditNoteStream } from '../../domain/credit-note/events';
import { invoiceStream } from '../../domain/invoice/events';
import { concerns, type EventStore } from '../../infra/event-store/port';
import { creditNoteCommand } from '../plumbing/credit-note-command';
import type { Loaded } from '../plumbing/handle';
import { invoiceCommand } from '../plumbing/invoice-command';
import { latestPosition } from '../plumbing/positions';
import { loopTurns } from '../../infra/loop-turns';

/** The documents a request raised, whose push to the accounting system it waits for. */
export type RaisedDocuments = Readonly<{ invoiceIds?: readonly (string | null)[]; creditNoteIds?: readonly (string | null)[] }>;

/**
 * A push recorded in this process wakes the wait at once, and EventStoreDB's subscription announces
 * other processes' appends too (a re-confirmed one announces that any stream may have changed); for
 * anything a store still does not announce, the documents are looked at again this often.
 */
const POLL_MS = 250;

type Settled = Readonly<{ settled: boolean; stream: string; loaded: Loaded<unknown> }>;

const settled = (stream: string, loaded: Loaded<{ status: string; sync?: string }>): Settled => ({
  settled: loaded.state.status !== 'raised' || loaded.state.sync !== 'pending',
  stream,
  loaded,
});

const invoiceSettled = async (store: EventStore, id: string): Promise<Settled> => settled(invoiceStream(id), await invoiceCommand.load(store, id));
const creditNoteSettled = async (store: EventStore, id: string): Promise<Settled> => settled(creditNoteStream(id), await creditNoteCommand.load(store, id));

/**
 * Waits up to `waitMs` for the accounting sync worker to record the outcome of each document's push
 * (synced, with any allocation, or failed) and returns the log position of the last of those
 * records (or the request's own `position`, if later), so that a read after it shows them. Only an
 * append to one of the documents' own streams wakes the wait, and only those documents are looked
 * at again (all that are still pending at each poll): a wait for thousands of documents (a test
 * clock advance's renewal invoices) costs one look per push, not one look at all of them per push,
 * the loop turning between looks. Past the wait a document is answered as it stands (`pending`):
 * the job, not the request, owns the push, and finishes it later.
 */
export const awaitSync = async (store: EventStore, position: bigint, documents: RaisedDocuments, waitMs: number): Promise<bigint> => {
  const look = new Map<string, () => Promise<Settled>>();
  for (const id of documents.invoiceIds ?? []) if (id !== null) look.set(invoiceStream(id), () => invoiceSettled(store, id));
  for (const id of documents.creditNoteIds ?? []) if (id !== null) look.set(creditNoteStream(id), () => creditNoteSettled(store, id));
  if (look.size === 0) return position;
  const started = performance.now();
  /** Each document as last looked at, and those still pending. */
  const seen = new Map<string, Settled>();
  const pending = new Set(look.keys());
  let wake: (() => void) | null = null;
  // The pending streams appended to since the last look (null: any may have been), so one that lands while a look is reading is not missed.
  let appended: Set<string> | null = new Set();
  const unsubscribe = store.onAppended((streamIds) => {
    if (!concerns(streamIds, pending)) return;
    if (streamIds === null) appended = null;
    else for (const stream of streamIds) if (pending.has(stream)) appended?.add(stream);
    wake?.();
  });
  const lookAt = async (streams: Iterable<string>) => {
    const turns = loopTurns();
    for (const stream of [...streams]) {
      const document = await look.get(stream)!();
      seen.set(stream, document);
      if (document.settled) pending.delete(stream);
      await turns.pause();
    }
  };
  try {
    await lookAt(pending);
    for (;;) {
      const left = waitMs - (performance.now() - started);
      if (pending.size === 0 || left <= 0) return latestPosition(position, await lastPosition(store, [...seen.values()]));
      if (appended === null || appended.size === 0) {
        const polled = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => {
            wake = null;
            resolve(true);
          }, Math.min(POLL_MS, left));
          wake = () => {
            wake = null;
            clearTimeout(timer);
            // Appends of one loop turn wake one look.
            setImmediate(() => resolve(false));
          };
        });
        if (polled) appended = null;
      }
      const streams: Set<string> = appended ?? pending;
      appended = new Set();
      await lookAt(streams);
    }
  } finally {
    unsubscribe();
  }
};

/** The position of each document's last event: known from its load, read only where it was not. */
const lastPosition = async (store: EventStore, documents: readonly Settled[]): Promise<bigint> => {
  const positions = await Promise.all(
    documents.map(async ({ stream, loaded: { revision, position } }) =>
      position ?? (revision === 'no_stream' ? 0n : ((await store.readStream(stream, revision, 1))[0]?.position ?? 0n)),
    ),
  );
  return latestPosition(...positions);
};
