import { formatMoney, parseMoney } from '../../domain/pricing/money';
import { monthlyMovements, movementOf } from '../../domain/reports/mrr-movement';
import { cpiUplifted, created, ended, endScheduled, restored, timelineOf, unitsChanged } from '../support/recurring-events';

const money = parseMoney;
const moves = (timeline: ReturnType<typeof timelineOf>, timezone = 'Europe/London') =>
  monthlyMovements(timeline, timezone).map(({ month, kind, amount }) => [month, kind, formatMoney(amount)]);

describe('the movement of one subscription over a month', () => {
  it('classifies the MRR at the month’s start against the MRR at its end', () => {
    expect(movementOf(0n, money('40'), false)).toEqual({ kind: 'new', amount: money('40') });
    expect(movementOf(0n, money('45'), true)).toEqual({ kind: 'reactivation', amount: money('45') });
    expect(movementOf(money('40'), money('60'), true)).toEqual({ kind: 'expansion', amount: money('20') });
    expect(movementOf(money('60'), money('45'), true)).toEqual({ kind: 'contraction', amount: money('15') });
    expect(movementOf(money('45'), 0n, true)).toEqual({ kind: 'churn', amount: money('45') });
    expect(movementOf(money('45'), money('45'), true)).toBeNull();
    expect(movementOf(0n, 0n, true)).toBeNull();
  });

  it('follows a subscription month by month: new, expansion, contraction, churn', () => {
    // From 15 Jan at 5 × 10.0000 = 50.0000; 8 seats from 10 Feb (80.0000, +30.0000); 6 seats from the
    // renewal on 15 Mar without proration (60.0000, −20.0000); ended on 5 Apr (−60.0000).
    const timeline = timelineOf(created(), [
      { event: unitsChanged(8, '2026-02-10', '2026-02-15'), at: '2026-02-10T09:00:00Z' },
      { event: unitsChanged(6, null, '2026-03-15'), at: '2026-03-01T09:00:00Z' },
      { event: ended('2026-04-05'), at: '2026-04-05T09:00:00Z' },
    ]);
    expect(moves(timeline)).toEqual([
      ['2026-01', 'new', '50.0000'],
      ['2026-02', 'expansion', '30.0000'],
      ['2026-03', 'contraction', '20.0000'],
      ['2026-04', 'churn', '60.0000'],
    ]);
  });

  it('moves nothing for a subscription that starts and ends inside one month', () => {
    expect(moves(timelineOf(created(), [{ event: ended('2026-01-25'), at: '2026-01-25T09:00:00Z' }]))).toEqual([]);
  });

  it('nets changes inside one month: up then back down moves nothing, up twice is one expansion', () => {
    const history = [
      { event: unitsChanged(8, '2026-02-03', '2026-02-15'), at: '2026-02-03T09:00:00Z' },
      { event: unitsChanged(5, '2026-02-10', '2026-02-15'), at: '2026-02-10T09:00:00Z' },
    ];
    expect(moves(timelineOf(created(), history))).toEqual([['2026-01', 'new', '50.0000']]);
    const twice = [history[0]!, { event: unitsChanged(9, '2026-02-10', '2026-02-15'), at: '2026-02-10T09:00:00Z' }];
    expect(moves(timelineOf(created(), twice))).toEqual([
      ['2026-01', 'new', '50.0000'],
      ['2026-02', 'expansion', '40.0000'],
    ]);
  });

  it('counts a change at a month’s first instant in the month it ends', () => {
    // The MRR at February's end is the MRR at 1 March 00:00: a CPI uplift from a renewal on 1 March is February's expansion.
    const timeline = timelineOf(created({ startDate: '2026-01-01' }), [{ event: cpiUplifted('2026-03-01', '10.3500'), at: '2026-02-22T09:00:00Z' }]);
    expect(moves(timeline)).toEqual([
      ['2025-12', 'new', '50.0000'],
      ['2026-02', 'expansion', '1.7500'],
    ]);
    // Likewise an end at period end on 1 May is April's churn.
    expect(moves(timelineOf(created({ startDate: '2026-01-01' }), [{ event: endScheduled('2026-05-01'), at: '2026-04-10T09:00:00Z' }]))).toEqual([
      ['2025-12', 'new', '50.0000'],
      ['2026-04', 'churn', '50.0000'],
    ]);
  });

  it('calls a subscription with MRR again after a month without it a reactivation', () => {
    const timeline = timelineOf(created(), [
      { event: ended('2026-02-20'), at: '2026-02-20T09:00:00Z' },
      { event: restored('ended'), at: '2026-03-03T09:00:00Z' },
    ]);
    expect(moves(timeline)).toEqual([
      ['2026-01', 'new', '50.0000'],
      ['2026-02', 'churn', '50.0000'],
      ['2026-03', 'reactivation', '50.0000'],
    ]);
    // Ended and restored inside one month: nothing moves.
    const sameMonth = timelineOf(created(), [
      { event: ended('2026-02-20'), at: '2026-02-20T09:00:00Z' },
      { event: restored('ended'), at: '2026-02-23T09:00:00Z' },
    ]);
    expect(moves(sameMonth)).toEqual([['2026-01', 'new', '50.0000']]);
  });

  it('takes its months in the organisation’s timezone', () => {
    // From 1 March in New York: 05:00 UTC, already March in London, still 28 February (21:00) in Los Angeles.
    const timeline = timelineOf(created({ timezone: 'America/New_York', startDate: '2026-03-01' }));
    expect(moves(timeline, 'Europe/London')).toEqual([['2026-03', 'new', '50.0000']]);
    expect(moves(timeline, 'America/Los_Angeles')).toEqual([['2026-02', 'new', '50.0000']]);
  });
});
