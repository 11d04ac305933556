import { formatMoney, type Money } from '../../../domain/pricing/money';

/**
 * A month's figures as the reports' documents hold them: amounts as 4-place strings, counts as
 * numbers, a figure that is 0 left out (most of any change are: a new subscription's is its `new`
 * amount and one more subscription with MRR).
 */
export type Fields = Record<string, string | number>;

/** An amount as `formatMoney` wrote it, read without the checks an amount from outside needs. */
const written = (text: string): Money => BigInt(text.slice(0, -5) + text.slice(-4));

/** The figures of `fields` with `sign` × those of `change` added, those that come to 0 left out. */
export const plus = (fields: Readonly<Fields> | undefined, change: Readonly<Fields>, sign: 1 | -1 = 1): Fields => {
  const sum: Fields = { ...fields };
  for (const field in change) {
    const value = change[field]!;
    const held = sum[field];
    const total =
      typeof value === 'number' ? ((held as number | undefined) ?? 0) + sign * value : formatMoney((held === undefined ? 0n : written(held as string)) + BigInt(sign) * written(value));
    if (total === 0 || total === ZERO) delete sum[field];
    else sum[field] = total;
  }
  return sum;
};

const ZERO = formatMoney(0n);

/** Whether there is no figure but 0. */
export const isNothing = (fields: Readonly<Fields>): boolean => Object.keys(fields).length === 0;
