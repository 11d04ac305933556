import { performance } from 'node:perf_hooks';
import { creditNoteStream } from '../../domain/credit-note/events';
import { invoiceStream } from '../../domain/invoice/events';
import { concerns, type EventStore } from '../../infra/event-store/port';
import { creditNoteCommand } from '../plumbing/credit-note-command';
import type { Loaded } from '../plumbing/handle';
import { invoiceCommand } from '../plumbing/invoice-command';
import { latestPosition } from '../plumbing/positions';

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
 * append to one of the documents' own streams wakes the wait. Past the wait a document is answered
 * as it stands (`pending`): the job, not the request, owns the push, and finishes it later.
 */
export const awaitSync = async (store: EventStore, position: bigint, documents: RaisedDocuments, waitMs: number): Promise<bigint> => {
  const invoiceIds = (documents.invoiceIds ?? []).filter((id): id is string => id !== null);
  const creditNoteIds = (documents.creditNoteIds ?? []).filter((id): id is string => id !== null);
  if (invoiceIds.length + creditNoteIds.length === 0) return position;
  const streams = new Set([...invoiceIds.map(invoiceStream), ...creditNoteIds.map(creditNoteStream)]);
  const started = performance.now();
  let wake: (() => void) | null = null;
  // Set by an append to one of the streams, so one that lands while a check is reading is not missed.
  let appended = false;
  const unsubscribe = store.onAppended((streamIds) => {
    if (!concerns(streamIds, streams)) return;
    appended = true;
    wake?.();
  });
  try {
    for (;;) {
      appended = false;
      const checked = await Promise.all([...invoiceIds.map((id) => invoiceSettled(store, id)), ...creditNoteIds.map((id) => creditNoteSettled(store, id))]);
      const left = waitMs - (performance.now() - started);
      if (checked.every((document) => document.settled) || left <= 0) return latestPosition(position, await lastPosition(store, checked));
      if (appended) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          wake = null;
          resolve();
        }, Math.min(POLL_MS, left));
        wake = () => {
          wake = null;
          clearTimeout(timer);
          // Appends of one loop turn wake one check.
          setImmediate(resolve);
        };
      });
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
