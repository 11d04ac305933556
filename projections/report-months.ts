import { formatMoney, type Money, parseMoney } from '../domain/pricing/money';
import type { Month } from '../domain/reports/months';
import type { Doc } from '../infra/read-store/port';
import type { ProjectionContext } from './projection';

/** One organisation's month in one currency: what the reports read, a document each. */
export type MonthKey = Readonly<{ organisationId: string; currency: string; month: Month }>;

export type MonthDoc = Doc & { _organisation: string; currency: string; month: Month };

/**
 * Adds signed amounts (4-place strings in the document) and counts to a month's document. A month
 * left with nothing is deleted, so the months held are those with something in them: where each
 * currency's rows start.
 */
export const addToMonth = async (
  context: ProjectionContext,
  collection: string,
  { organisationId, currency, month }: MonthKey,
  amounts: Readonly<Record<string, Money>>,
  counts: Readonly<Record<string, number>> = {},
): Promise<void> => {
  const id = `${organisationId}/${currency}/${month}`;
  const held = await context.get<MonthDoc>(collection, id);
  const doc: MonthDoc = { id, _organisation: organisationId, currency, month };
  let empty = true;
  for (const [field, amount] of Object.entries(amounts)) {
    const total = parseMoney((held?.[field] as string | undefined) ?? '0') + amount;
    doc[field] = formatMoney(total);
    empty &&= total === 0n;
  }
  for (const [field, count] of Object.entries(counts)) {
    const total = ((held?.[field] as number | undefined) ?? 0) + count;
    doc[field] = total;
    empty &&= total === 0;
  }
  if (empty) context.delete(collection, id);
  else context.put(collection, doc);
};
