import { performance } from 'node:perf_hooks';
import { creditNoteStream } from '../domain/credit-note/events';
import { invoiceStream } from '../domain/invoice/events';
import type { EventStore } from '../infra/event-store/port';
import { creditNoteCommand } from './credit-note/credit-note-command';
import { invoiceCommand } from './invoice/invoice-command';
import { latestPosition } from './positions';

/** The documents a request raised, whose push to the accounting system it waits for. */
export type RaisedDocuments = Readonly<{ invoiceIds?: readonly (string | null)[]; creditNoteIds?: readonly (string | null)[] }>;

/** Appends by other processes are not announced here: looked for this often. */
const POLL_MS = 25;

type Settled = Readonly<{ settled: boolean; stream: string; revision: number | 'no_stream' }>;

const invoiceSettled = async (store: EventStore, id: string): Promise<Settled> => {
  const { state, revision } = await invoiceCommand.load(store, id);
  return { settled: state.status !== 'raised' || state.sync !== 'pending', stream: invoiceStream(id), revision };
};

const creditNoteSettled = async (store: EventStore, id: string): Promise<Settled> => {
  const { state, revision } = await creditNoteCommand.load(store, id);
  return { settled: state.status !== 'raised' || state.sync !== 'pending', stream: creditNoteStream(id), revision };
};

/**
 * Waits up to `waitMs` for the accounting sync worker to record the outcome of each document's push
 * (synced, with any allocation, or failed) and returns the log position of the last of those
 * records (or the request's own `position`, if later), so that a read after it shows them. Past the wait a document is answered as it stands
 * (`pending`): the job, not the request, owns the push, and finishes it later.
 */
export const awaitSync = async (store: EventStore, position: bigint, documents: RaisedDocuments, waitMs: number): Promise<bigint> => {
  const invoiceIds = (documents.invoiceIds ?? []).filter((id): id is string => id !== null);
  const creditNoteIds = (documents.creditNoteIds ?? []).filter((id): id is string => id !== null);
  if (invoiceIds.length + creditNoteIds.length === 0) return position;
  const started = performance.now();
  let wake: (() => void) | null = null;
  const unsubscribe = store.onAppended(() => wake?.());
  try {
    for (;;) {
      const checked = await Promise.all([...invoiceIds.map((id) => invoiceSettled(store, id)), ...creditNoteIds.map((id) => creditNoteSettled(store, id))]);
      const left = waitMs - (performance.now() - started);
      if (checked.every((document) => document.settled) || left <= 0) return latestPosition(position, await lastPosition(store, checked));
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

const lastPosition = async (store: EventStore, documents: readonly Settled[]): Promise<bigint> => {
  const positions = await Promise.all(
    documents.map(async ({ stream, revision }) => (revision === 'no_stream' ? 0n : ((await store.readStream(stream, revision))[0]?.position ?? 0n))),
  );
  return latestPosition(...positions);
};
