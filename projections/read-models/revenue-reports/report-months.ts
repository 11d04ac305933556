import type { Month } from '../../../domain/reports/months';
import type { Doc } from '../../../infra/read-store/port';
import type { ProjectionContext } from '../../engine/projection';
import { forgetSums, heldSums, readSums, type SumsDocument } from './batch-sums';
import { addFigures, type Fields, type Figures, fieldsOf, figuresOf, isNothing } from './report-fields';
import { recordChange, type RecentHistory } from './report-history';

/** One organisation's month in one currency: what the reports read, a document each. */
export type MonthKey = Readonly<{ organisationId: string; currency: string; month: Month }>;

export type MonthDoc = Doc & { _organisation: string; currency: string; month: Month };

/** A month's document as a batch holds it: its figures, and the history documents its changes went to last. */
type HeldMonth = { figures: Figures; recent: RecentHistory };

/** A month's document as its figures, and back: a month left with nothing is deleted, so the months held are those with something in them (where each currency's rows start). */
const MONTH_DOCUMENT: SumsDocument<MonthDoc, HeldMonth> = {
  read: (doc) => {
    if (!doc) return { figures: {}, recent: [] };
    const { id: _id, _organisation, currency: _currency, month: _month, ...fields } = doc;
    return { figures: figuresOf(fields as Fields), recent: [] };
  },
  write: (id, { figures }) => {
    if (isNothing(figures)) return null;
    const [organisationId, currency, month] = id.split('/') as [string, string, Month];
    return { id, _organisation: organisationId, currency, month, ...fieldsOf(figures) };
  },
};

/**
 * Adds a change (signed amounts and counts) to a month's document, and records it at the instant
 * its event was recorded (`recordChange`: what the months stood at then is told from those).
 */
export const addToMonth = async (context: ProjectionContext, collection: string, key: MonthKey, change: Readonly<Figures>, recorded: string): Promise<void> => {
  if (isNothing(change)) return;
  const id = `${key.organisationId}/${key.currency}/${key.month}`;
  const held = heldSums<HeldMonth>(context, collection, id) ?? (await readSums(context, collection, id, MONTH_DOCUMENT));
  addFigures(held.figures, change);
  await recordChange(context, collection, key, recorded, change, held.recent);
};

/** After the batch deleted an organisation's months (a sandbox reset): its next change to one starts from none. */
export const forgetMonths = (context: ProjectionContext, collection: string, organisationId: string): void =>
  forgetSums(context, collection, (id) => id.startsWith(`${organisationId}/`));
