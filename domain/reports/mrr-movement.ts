import type { Money } from '../pricing/money';
import { addMonths, type Month, monthOf, monthStart } from './months';
import type { MrrTimeline } from './subscription-mrr';

export const MOVEMENT_KINDS = ['new', 'expansion', 'contraction', 'churn', 'reactivation'] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

/** How one subscription's MRR moved over a month: a kind and a positive amount. */
export type Movement = Readonly<{ kind: MovementKind; amount: Money }>;

/**
 * A subscription's MRR at the month's start (`opening`) against its MRR at the month's end (the
 * first instant of the next month), `activeBefore` saying whether it had MRR at some instant before
 * the month: from 0 to more is `new`, or `reactivation` once it had MRR before; from more to 0 is
 * `churn`; up is `expansion`, down to more than 0 `contraction`; unchanged moves nothing.
 * 0 → 40.0000, never active: new 40.0000; 40.0000 → 60.0000: expansion 20.0000;
 * 60.0000 → 45.0000: contraction 15.0000; 45.0000 → 0: churn 45.0000; 0 → 45.0000, active in an
 * earlier month: reactivation 45.0000.
 */
export const movementOf = (opening: Money, closing: Money, activeBefore: boolean): Movement | null => {
  if (opening === closing) return null;
  if (opening === 0n) return { kind: activeBefore ? 'reactivation' : 'new', amount: closing };
  if (closing === 0n) return { kind: 'churn', amount: opening };
  return closing > opening ? { kind: 'expansion', amount: closing - opening } : { kind: 'contraction', amount: opening - closing };
};

/** How many subscriptions with MRR a movement adds (new, reactivation) or takes away (churn). */
export const activeChangeOf = (kind: MovementKind): number => (kind === 'new' || kind === 'reactivation' ? 1 : kind === 'churn' ? -1 : 0);

export type MonthMovement = Movement & Readonly<{ month: Month }>;

/**
 * The months of a timezone in which a subscription's MRR moved, oldest first. Only a month whose
 * end (its next month's first instant) follows a change can move: a change at a month's very first
 * instant moves the month before it. A subscription that starts and ends inside one month moves nothing.
 */
export const monthlyMovements = (timeline: MrrTimeline, timezone: string): MonthMovement[] => {
  const months = [...new Set(timeline.changes.map((change) => monthOf(change - 1, timezone)))].sort();
  const activeFrom = timeline.changes.filter((change) => timeline.at(change) > 0n);
  return months.flatMap((month) => {
    const start = monthStart(month, timezone);
    const movement = movementOf(timeline.at(start), timeline.at(monthStart(addMonths(month, 1), timezone)), activeFrom.some((change) => change < start));
    return movement ? [{ month, ...movement }] : [];
  });
};
