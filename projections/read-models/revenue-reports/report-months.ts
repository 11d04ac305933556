import type { Month } from '../../../domain/reports/months';
import type { Doc } from '../../../infra/read-store/port';
import type { ProjectionContext } from '../../engine/projection';
import { type Fields, isNothing, plus } from './report-fields';
import { recordChange } from './report-history';

/** One organisation's month in one currency: what the reports read, a document each. */
export type MonthKey = Readonly<{ organisationId: string; currency: string; month: Month }>;

export type MonthDoc = Doc & { _organisation: string; currency: string; month: Month };

/**
 * Adds a change (signed amounts and counts) to a month's document, and records it at the instant
 * its event was recorded (`recordChange`: what the months stood at then is told from those). A
 * month left with nothing is deleted, so the months held are those with something in them: where
 * each currency's rows start.
 */
export const addToMonth = async (context: ProjectionContext, collection: string, { organisationId, currency, month }: MonthKey, change: Fields, recorded: string): Promise<void> => {
  const id = `${organisationId}/${currency}/${month}`;
  const { id: _id, _organisation, currency: _currency, month: _month, ...held } = (await context.get<MonthDoc>(collection, id)) ?? {};
  const figures = plus(held as Fields, change);
  if (isNothing(figures)) context.delete(collection, id);
  else context.put(collection, { id, _organisation: organisationId, currency, month, ...figures } satisfies MonthDoc);
  await recordChange(context, organisationId, recorded, `${collection}/${currency}/${month}`, change);
};
