import { formatMoney, parseMoney } from '../domain/pricing/money';

/** A month's figures as the reports' documents hold them: amounts as 4-place strings, counts as numbers. */
export type Fields = Record<string, string | number>;

const ZERO = formatMoney(0n);

/** `fields` with `sign` × each of `change`'s figures added to it (a field it lacks counts 0). */
export const plus = (fields: Readonly<Fields> | undefined, change: Readonly<Fields>, sign: 1 | -1 = 1): Fields => {
  const sum: Fields = { ...fields };
  for (const [field, value] of Object.entries(change)) {
    const held = fields?.[field];
    // Most figures of a change are 0: such a one only gives the field to a sum that lacks it.
    if (value === 0 || value === ZERO) {
      sum[field] ??= value;
      continue;
    }
    sum[field] =
      typeof value === 'number'
        ? ((held as number | undefined) ?? 0) + sign * value
        : formatMoney(parseMoney((held as string | undefined) ?? '0') + BigInt(sign) * parseMoney(value));
  }
  return sum;
};

/** Whether every figure is 0. */
export const isNothing = (fields: Readonly<Fields>): boolean => Object.values(fields).every((value) => (typeof value === 'number' ? value === 0 : parseMoney(value) === 0n));
