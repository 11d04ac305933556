import type { Doc, ReadStore } from '../../../infra/read-store/port';
import type { ProjectionContext } from '../../engine/projection';
import type { Month } from '../../../domain/reports/months';
import { heldSums, readSums, type SumsDocument } from './batch-sums';
import { addFigures, type Fields, type Figures, fieldsOf, figuresOf, isNothing } from './report-fields';

/**
 * What the months' documents were changed by, summed by when the change was recorded: per
 * organisation and month document, a document for each recorded month, hour and second with changes
 * (the second's by millisecond too). The months as they stood at any recorded instant are the sum of
 * the earlier months', the month's earlier hours', the hour's earlier seconds' and the second's
 * changes to its millisecond (`historyAt`): a few thousand small documents at most, whatever the
 * number of subscriptions and however long the log. No `_organisation` field: a sandbox reset keeps
 * them, the months before it still to be told.
 */
export const REPORT_HISTORY = 'report_history';

/** Each level's bucket: the first characters of the recorded ISO instant. */
const LEVELS = [
  { level: 'month', length: 7 },
  { level: 'hour', length: 13 },
  { level: 'second', length: 19 },
] as const;
type Level = (typeof LEVELS)[number]['level'];

type HistoryDoc = Doc & {
  organisation: string;
  level: Level;
  /** The bucket of the level above ('' for a month): the buckets of one parent are summed together. */
  parent: string;
  bucket: string;
  /** The month document changed: `${collection}/${currency}/${month}`. */
  key: string;
  /** A month's or hour's changes; a second's by millisecond. */
  sums: Fields | Record<string, Fields>;
};

/** A history document as a batch adds to it: a month's or hour's figures, a second's by millisecond. */
type HistorySums = Figures | Map<string, Figures>;

/** A level's history documents as their sums, and back. Ids are `${organisation}/${bucket}/${key}`. */
const historyDocument = (level: Level, parentLength: number): SumsDocument<HistoryDoc, HistorySums> => ({
  read: (doc) =>
    level === 'second'
      ? new Map(Object.entries((doc?.sums ?? {}) as Record<string, Fields>).map(([ms, fields]) => [ms, figuresOf(fields)]))
      : figuresOf((doc?.sums ?? {}) as Fields),
  write: (id, sums) => {
    const [organisation, bucket, ...key] = id.split('/') as [string, string, ...string[]];
    return {
      id,
      organisation,
      level,
      parent: bucket.slice(0, parentLength),
      bucket,
      key: key.join('/'),
      sums: sums instanceof Map ? Object.fromEntries([...sums].map(([ms, figures]) => [ms, fieldsOf(figures)])) : fieldsOf(sums),
    };
  },
});

const HISTORY_DOCUMENTS = LEVELS.map(({ level }, i) => historyDocument(level, i === 0 ? 0 : LEVELS[i - 1]!.length));

/** An instant as `toISOString` prints it, as the log records it: its buckets are its first characters. */
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const isoOf = (instant: string): string => (ISO_INSTANT.test(instant) ? instant : new Date(instant).toISOString());

/**
 * The history documents a month's document's changes went to last in a batch, by level: a change
 * recorded in the same buckets (most of a batch's, at any level but the second) adds to them without
 * looking them up.
 */
export type RecentHistory = ({ bucket: string; sums: HistorySums } | undefined)[];

/** Records a change to a month's document (`collection`'s of `month`) at the instant it was recorded, in its recorded month, hour and second. */
export const recordChange = async (
  context: ProjectionContext,
  collection: string,
  /** The month document's key (report-months' `MonthKey`, which imports this file). */
  { organisationId, currency, month }: Readonly<{ organisationId: string; currency: string; month: Month }>,
  recorded: string,
  change: Readonly<Figures>,
  recent: RecentHistory,
): Promise<void> => {
  const iso = isoOf(recorded);
  for (let i = 0; i < LEVELS.length; i++) {
    let held = recent[i];
    if (!held || !iso.startsWith(held.bucket)) {
      const bucket = iso.slice(0, LEVELS[i]!.length);
      const id = `${organisationId}/${bucket}/${collection}/${currency}/${month}`;
      held = recent[i] = { bucket, sums: heldSums<HistorySums>(context, REPORT_HISTORY, id) ?? (await readSums(context, REPORT_HISTORY, id, HISTORY_DOCUMENTS[i]!)) };
    }
    const { sums } = held;
    if (sums instanceof Map) {
      const ms = iso.slice(20, 23);
      let atMs = sums.get(ms);
      if (!atMs) sums.set(ms, (atMs = {}));
      addFigures(atMs, change);
    } else addFigures(sums, change);
  }
};

/** Every change recorded up to an instant (inclusive, to the millisecond), `sign` × summed into `total` by month document. */
const addUpTo = async (readStore: Pick<ReadStore, 'findAll'>, organisationId: string, instant: string, total: Map<string, Figures>, sign: 1 | -1): Promise<void> => {
  const iso = isoOf(instant);
  const ms = iso.slice(20, 23);
  const add = (key: string, change: Fields) => {
    let figures = total.get(key);
    if (!figures) total.set(key, (figures = {}));
    addFigures(figures, figuresOf(change), sign);
  };
  let parent = '';
  for (const { level, length } of LEVELS) {
    const bucket = iso.slice(0, length);
    const docs = await readStore.findAll<HistoryDoc>(REPORT_HISTORY, [
      { field: 'organisation', eq: organisationId },
      { field: 'level', eq: level },
      { field: 'parent', eq: parent },
      { field: 'bucket', lte: bucket },
    ]);
    for (const doc of docs) {
      if (level !== 'second') {
        if (doc.bucket < bucket) add(doc.key, doc.sums as Fields);
      } else {
        for (const [at, change] of Object.entries(doc.sums as Record<string, Fields>)) if (doc.bucket < bucket || at <= ms) add(doc.key, change);
      }
    }
    parent = bucket;
  }
};

/**
 * The months' documents as they stood at a recorded instant: every change recorded up to it, less
 * those recorded up to the organisation's last reset before it (which emptied them). By collection,
 * documents with something in them only, as the months' collections hold them.
 */
export const historyAt = async (readStore: Pick<ReadStore, 'findAll'>, organisationId: string, instant: string, lastReset: string | null): Promise<Map<string, Doc[]>> => {
  const total = new Map<string, Figures>();
  await addUpTo(readStore, organisationId, instant, total, 1);
  if (lastReset !== null) await addUpTo(readStore, organisationId, lastReset, total, -1);
  const byCollection = new Map<string, Doc[]>();
  for (const [key, figures] of total) {
    if (isNothing(figures)) continue;
    const [collection, currency, month] = key.split('/') as [string, string, string];
    byCollection.set(collection, [...(byCollection.get(collection) ?? []), { id: `${organisationId}/${currency}/${month}`, _organisation: organisationId, currency, month, ...fieldsOf(figures) }]);
  }
  return byCollection;
};
