import type { Money } from '../pricing/money';
import type { MovementKind } from './mrr-movement';
import { type Month, monthsFrom } from './months';
import { NO_REVENUE, type Revenue, REVENUE_TYPES } from './revenue';

/** The movements of every subscription of one currency in one month, summed: what the MRR projection keeps. */
export type MrrMonth = Readonly<{ month: Month; currency: string; movements: Readonly<Record<MovementKind, Money>>; activeChange: number }>;

/** What one currency invoiced in one month: each revenue type net of the credit notes reversing it, and the credits. */
export type RevenueMonth = Readonly<{ month: Month; currency: string; revenue: Revenue; credits: Money }>;

export type MrrRow = Readonly<{
  month: Month;
  currency: string;
  opening: Money;
  movements: Readonly<Record<MovementKind, Money>>;
  closing: Money;
  activeSubscriptions: number;
}>;

export type RevenueRow = Readonly<{ month: Month; currency: string; revenue: Revenue; credits: Money; total: Money }>;

export type Range = Readonly<{ from: Month; to: Month }>;

const NO_MOVEMENT: Readonly<Record<MovementKind, Money>> = { new: 0n, expansion: 0n, contraction: 0n, churn: 0n, reactivation: 0n };

const netMovement = (m: MrrMonth['movements']): Money => m.new + m.expansion + m.reactivation - m.contraction - m.churn;

/** Per currency, the first month with anything in either report: each currency's rows run from there. */
export const firstMonths = (...lists: readonly (readonly Readonly<{ month: Month; currency: string }>[])[]): Map<string, Month> => {
  const first = new Map<string, Month>();
  for (const { month, currency } of lists.flat()) if (!first.has(currency) || month < first.get(currency)!) first.set(currency, month);
  return first;
};

const byMonthThenCurrency = (a: { month: Month; currency: string }, b: { month: Month; currency: string }) =>
  a.month === b.month ? (a.currency < b.currency ? -1 : 1) : a.month < b.month ? -1 : 1;

/** What one currency's rows are built from: the months of the range from its first on, the months held among them, those before. */
type CurrencyMonths<M> = Readonly<{ currency: string; months: readonly Month[]; held: ReadonlyMap<Month, M>; earlier: readonly M[] }>;

/** A row for every month of the range from each currency's first month on, oldest first, then by currency. */
const rowsOf = <M extends { month: Month; currency: string }, R extends { month: Month; currency: string }>(
  months: readonly M[],
  firsts: ReadonlyMap<string, Month>,
  range: Range,
  rows: (of: CurrencyMonths<M>) => R[],
): R[] =>
  [...firsts]
    .flatMap(([currency, first]) => {
      const from = first > range.from ? first : range.from;
      const own = months.filter((m) => m.currency === currency);
      const held = new Map(own.filter((m) => m.month >= from && m.month <= range.to).map((m) => [m.month, m]));
      return rows({ currency, months: monthsFrom(from, range.to), held, earlier: own.filter((m) => m.month < from) });
    })
    .sort(byMonthThenCurrency);

/**
 * The MRR rows of a range from the months' movements: a month's opening is the sum of every earlier
 * month's net movement (so `opening + new + expansion + reactivation − contraction − churn = closing`
 * and a month's closing is the next month's opening, by construction), and its active
 * subscriptions likewise the sum of the changes to their count.
 */
export const mrrRows = (months: readonly MrrMonth[], firsts: ReadonlyMap<string, Month>, range: Range): MrrRow[] =>
  rowsOf(months, firsts, range, ({ currency, months: span, held, earlier }) => {
    let mrr = earlier.reduce((sum, m) => sum + netMovement(m.movements), 0n);
    let active = earlier.reduce((sum, m) => sum + m.activeChange, 0);
    return span.map((month) => {
      const movements = held.get(month)?.movements ?? NO_MOVEMENT;
      const opening = mrr;
      mrr += netMovement(movements);
      active += held.get(month)?.activeChange ?? 0;
      return { month, currency, opening, movements, closing: mrr, activeSubscriptions: active };
    });
  });

export const revenueTotal = (revenue: Revenue): Money => REVENUE_TYPES.reduce((sum, type) => sum + revenue[type], 0n);

/** The revenue rows of a range: each month's net revenue by type, its credits, and the total of the four types. */
export const revenueRows = (months: readonly RevenueMonth[], firsts: ReadonlyMap<string, Month>, range: Range): RevenueRow[] =>
  rowsOf(months, firsts, range, ({ currency, months: span, held }) =>
    span.map((month) => {
      const revenue = held.get(month)?.revenue ?? NO_REVENUE;
      return { month, currency, revenue, credits: held.get(month)?.credits ?? 0n, total: revenueTotal(revenue) };
    }),
  );
