import type { CreditNoteLine } from '../credit-note/events';
import type { InvoiceLine } from '../invoice/events';
import { type Money, parseMoney } from '../pricing/money';

export const REVENUE_TYPES = ['new_subscription', 'expansion', 'renewal', 'usage'] as const;
export type RevenueType = (typeof REVENUE_TYPES)[number];

/** An amount per revenue type. */
export type Revenue = Readonly<Record<RevenueType, Money>>;

export const NO_REVENUE: Revenue = { new_subscription: 0n, expansion: 0n, renewal: 0n, usage: 0n };

const adding = (revenue: Revenue, type: RevenueType, amount: Money): Revenue => ({ ...revenue, [type]: revenue[type] + amount });

/** `a + sign × b`, type by type. */
export const combined = (a: Revenue, b: Revenue, sign: 1n | -1n = 1n): Revenue => ({
  new_subscription: a.new_subscription + sign * b.new_subscription,
  expansion: a.expansion + sign * b.expansion,
  renewal: a.renewal + sign * b.renewal,
  usage: a.usage + sign * b.usage,
});

/** What an invoice bills by revenue type: its lines' amounts after discount (`charge_amount`). */
export const invoiceRevenue = (lines: readonly Pick<InvoiceLine, 'revenueType' | 'chargeAmount'>[]): Revenue =>
  lines.reduce((revenue, line) => (line.revenueType === null ? revenue : adding(revenue, line.revenueType, parseMoney(line.chargeAmount))), NO_REVENUE);

/** An invoice line a credit note line may reverse: the instant it bills from, and its type. */
export type BilledLine = Readonly<{ effectiveDate: string | null; revenueType: RevenueType | null }>;

/**
 * The revenue type a credit note line reverses: that of the line that billed the period it credits.
 * A line of the credited invoice billing from the same instant is that line: the next period's line
 * of a `separate` increase (`expansion`), credited when the subscription ends, or the renewal
 * invoice's renewal line, which a `separate` decrease credits. Otherwise the line credits the rest of
 * a current period, billed by the first invoice (`new_subscription`) until the subscription's first
 * renewal line holds (`firstRenewal`, an instant), and by a renewal line (`renewal`) from then on.
 * A decrease from 10 to 6 seats on 20 Mar in the first period (15 Mar to 15 Apr): new_subscription;
 * the same in the second period, renewal billing it from 15 Apr: renewal.
 */
export const reversedType = (line: Pick<CreditNoteLine, 'effectiveDate'>, credited: readonly BilledLine[], firstRenewal: string | null): RevenueType => {
  const same = credited.find((billed) => billed.effectiveDate === line.effectiveDate && billed.revenueType !== null);
  if (same) return same.revenueType!;
  return firstRenewal !== null && Date.parse(firstRenewal) <= Date.parse(line.effectiveDate) ? 'renewal' : 'new_subscription';
};

/** What a credit note reverses by revenue type: each line's amount (positive) under the type it reverses. */
export const creditNoteReversals = (lines: readonly CreditNoteLine[], credited: readonly BilledLine[], firstRenewal: string | null): Revenue =>
  lines.reduce((revenue, line) => adding(revenue, reversedType(line, credited, firstRenewal), parseMoney(line.amount)), NO_REVENUE);
