import type { Doc, ReadStore } from '../../../infra/read-store/port';
import type { ProjectionContext } from '../../engine/projection';
import { type Fields, isNothing, plus } from './report-fields';

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

type HistoryDoc = Doc & {
  organisation: string;
  level: (typeof LEVELS)[number]['level'];
  /** The bucket of the level above ('' for a month): the buckets of one parent are summed together. */
  parent: string;
  bucket: string;
  /** The month document changed: `${collection}/${currency}/${month}`. */
  key: string;
  /** A month's or hour's changes; a second's by millisecond. */
  sums: Fields | Record<string, Fields>;
};

/** Records a change to a month's document (`key`) at the instant it was recorded, in its recorded month, hour and second. */
export const recordChange = async (context: ProjectionContext, organisationId: string, recorded: string, key: string, change: Fields): Promise<void> => {
  const iso = new Date(recorded).toISOString();
  let parent = '';
  for (const { level, length } of LEVELS) {
    const bucket = iso.slice(0, length);
    const id = `${organisationId}/${bucket}/${key}`;
    const held = (await context.get<HistoryDoc>(REPORT_HISTORY, id))?.sums;
    const ms = iso.slice(20, 23);
    const sums = level === 'second' ? { ...(held as Record<string, Fields>), [ms]: plus((held as Record<string, Fields> | undefined)?.[ms], change) } : plus(held as Fields, change);
    context.put(REPORT_HISTORY, { id, organisation: organisationId, level, parent, bucket, key, sums } satisfies HistoryDoc);
    parent = bucket;
  }
};

/** Every change recorded up to an instant (inclusive, to the millisecond), `sign` × summed into `total` by month document. */
const addUpTo = async (readStore: Pick<ReadStore, 'findAll'>, organisationId: string, instant: string, total: Map<string, Fields>, sign: 1 | -1): Promise<void> => {
  const iso = new Date(instant).toISOString();
  const ms = iso.slice(20, 23);
  const add = (key: string, change: Fields) => total.set(key, plus(total.get(key), change, sign));
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
  const total = new Map<string, Fields>();
  await addUpTo(readStore, organisationId, instant, total, 1);
  if (lastReset !== null) await addUpTo(readStore, organisationId, lastReset, total, -1);
  const byCollection = new Map<string, Doc[]>();
  for (const [key, fields] of total) {
    if (isNothing(fields)) continue;
    const [collection, currency, month] = key.split('/') as [string, string, string];
    byCollection.set(collection, [...(byCollection.get(collection) ?? []), { id: `${organisationId}/${currency}/${month}`, _organisation: organisationId, currency, month, ...fields }]);
  }
  return byCollection;
};
