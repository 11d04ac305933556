import type { Doc } from '../../../infra/read-store/port';
import type { ProjectionContext } from '../../engine/projection';

/**
 * The documents of sums a batch adds to (a month's figures, their history), by batch, collection
 * and id: each read from the store once a batch and held as its sums, which the events of the batch
 * add to in place, and written once, when the batch is (`putComputed`). A month's document took
 * thousands of changes in a rebuild's batch, each one parsed, formatted and copied.
 */
const held = new WeakMap<ProjectionContext, Map<string, Map<string, unknown>>>();

const heldIn = (context: ProjectionContext, collection: string): Map<string, unknown> => {
  let batch = held.get(context);
  if (!batch) {
    batch = new Map();
    held.set(context, batch);
  }
  let sums = batch.get(collection);
  if (!sums) {
    sums = new Map();
    batch.set(collection, sums);
  }
  return sums;
};

/** How a collection's document of sums is read into its sums and written from them (null: none, deleted). */
export type SumsDocument<T extends Doc, S> = Readonly<{ read: (doc: T | null) => S; write: (id: string, sums: S) => T | null }>;

/** The sums of a document the batch holds, to add to in place; undefined before the batch's first change to it (then `readSums`). No promise: a rebuild asks millions of times. */
export const heldSums = <S>(context: ProjectionContext, collection: string, id: string): S | undefined => heldIn(context, collection).get(id) as S | undefined;

/** The sums of a document as the store holds them, now held by the batch to add to in place, and written when the batch is. */
export const readSums = async <T extends Doc, S>(context: ProjectionContext, collection: string, id: string, document: SumsDocument<T, S>): Promise<S> => {
  const sums = document.read(await context.get<T>(collection, id));
  heldIn(context, collection).set(id, sums);
  context.putComputed(collection, id, () => document.write(id, sums));
  return sums;
};

/** Lets go of the sums of the collection's documents `which` picks: the batch deleted them (a sandbox reset), and a later change starts again from none. */
export const forgetSums = (context: ProjectionContext, collection: string, which: (id: string) => boolean): void => {
  const batch = held.get(context)?.get(collection);
  for (const id of batch?.keys() ?? []) if (which(id)) batch!.delete(id);
};
