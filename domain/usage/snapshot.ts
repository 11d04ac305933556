import { z } from 'zod';
import { type UsagePeriodBilledData, usagePeriodBilledData } from './events';
import type { PeriodTotal, UsageState } from './state';

/** Changed whenever what a snapshot holds changes: one of another format is not read. */
const FORMAT = 1;

const snapshotSchema = z.object({
  format: z.literal(FORMAT),
  folded: z.number().int().nonnegative(),
  billedThrough: z.string().nullable(),
  /** [period start, meter id, exact total in ten-thousandths, events]. */
  totals: z.array(z.tuple([z.string(), z.string(), z.string().regex(/^\d+$/), z.number().int()])),
  billed: z.array(usagePeriodBilledData),
});

/** The state without its ids (the usage event id index holds those), as text to keep. */
export const usageSnapshotOf = (state: UsageState): string => {
  const totals: [string, string, string, number][] = [];
  for (const [periodStart, meters] of state.totals) for (const [meterId, total] of meters) totals.push([periodStart, meterId, String(total.quantity), total.events]);
  return JSON.stringify({ format: FORMAT, folded: state.ids.folded, billedThrough: state.billedThrough, totals, billed: [...state.billed.values()] });
};

/**
 * The state a snapshot holds, keeping none of the ids up to `idsKnownThrough` and none of the
 * snapshot's (the caller folds the ids of any events between the two); null when the text is not a
 * snapshot of this format.
 */
export const usageStateFromSnapshot = (text: string, idsKnownThrough: number): UsageState | null => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const snapshot = snapshotSchema.safeParse(parsed);
  if (!snapshot.success) return null;
  const { folded, billedThrough } = snapshot.data;
  const totals = new Map<string, Map<string, PeriodTotal>>();
  for (const [periodStart, meterId, quantity, events] of snapshot.data.totals) {
    let meters = totals.get(periodStart);
    if (!meters) totals.set(periodStart, (meters = new Map<string, PeriodTotal>()));
    meters.set(meterId, { quantity: BigInt(quantity), events });
  }
  const billed = new Map<string, UsagePeriodBilledData>(snapshot.data.billed.map((data) => [data.periodStart, data]));
  return { ids: { seen: new Map(), events: [], folded, knownThrough: idsKnownThrough }, totals, billed, billedThrough };
};
