import { formatMoney, type Money } from '../../../domain/pricing/money';

/**
 * A month's figures as the reports' documents hold them: amounts as 4-place strings, counts as
 * numbers, a figure that is 0 left out (most of any change are: a new subscription's is its `new`
 * amount and one more subscription with MRR).
 */
export type Fields = Record<string, string | number>;

/** The same figures as they are added up: amounts as `Money`, counts as numbers. */
export type Figures = Record<string, Money | number>;

/** An amount as `formatMoney` wrote it, read without the checks an amount from outside needs. */
const written = (text: string): Money => BigInt(text.slice(0, -5) + text.slice(-4));

/** The figures of a document's fields, as they are added up. */
export const figuresOf = (fields: Readonly<Fields>): Figures => {
  const figures: Figures = {};
  for (const field in fields) {
    const value = fields[field]!;
    figures[field] = typeof value === 'number' ? value : written(value);
  }
  return figures;
};

/** The figures as a document holds them: those that are 0 left out. */
export const fieldsOf = (figures: Readonly<Figures>): Fields => {
  const fields: Fields = {};
  for (const field in figures) {
    const value = figures[field]!;
    if (typeof value === 'number') {
      if (value !== 0) fields[field] = value;
    } else if (value !== 0n) fields[field] = formatMoney(value);
  }
  return fields;
};

/** Adds `sign` × `change` to `figures`, in place. */
export const addFigures = (figures: Figures, change: Readonly<Figures>, sign: 1 | -1 = 1): void => {
  for (const field in change) {
    const value = change[field]!;
    const held = figures[field];
    figures[field] = typeof value === 'number' ? ((held as number | undefined) ?? 0) + sign * value : ((held as Money | undefined) ?? 0n) + (sign === 1 ? value : -value);
  }
};

/** Whether there is no figure but 0. */
export const isNothing = (figures: Readonly<Figures>): boolean => {
  for (const field in figures) if (figures[field] !== 0 && figures[field] !== 0n) return false;
  return true;
};
