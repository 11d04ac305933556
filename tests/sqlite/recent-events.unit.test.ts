import type { StoredEvent } from '../../infra/event-store/port';
import { RecentEvents } from '../../infra/event-store/recent-events';

const at = (position: number): StoredEvent => ({ position: BigInt(position) }) as StoredEvent;
const positions = (events: readonly StoredEvent[] | null) => events?.map((event) => Number(event.position)) ?? null;

describe('the latest committed events kept for the log’s followers', () => {
  it('answers the consecutive events right after a position, up to the limit, and nothing it does not hold', () => {
    const recent = new RecentEvents(10);
    recent.committed([at(5), at(6), at(7)]);
    recent.committed([at(8)]);
    expect(positions(recent.take(4n, 10))).toEqual([5, 6, 7, 8]);
    expect(positions(recent.take(5n, 2))).toEqual([6, 7]);
    // Before the first kept one, at the last kept one, past it: the log is read instead.
    expect(recent.take(3n, 10)).toBeNull();
    expect(recent.take(8n, 10)).toBeNull();
    expect(recent.take(20n, 10)).toBeNull();
  });

  it('stops at a gap (an event appended by someone else, never seen here): the log answers from there', () => {
    const recent = new RecentEvents(10);
    recent.committed([at(1), at(2)]);
    recent.committed([at(4), at(5)]);
    expect(positions(recent.take(0n, 10))).toEqual([1, 2]);
    expect(recent.take(2n, 10)).toBeNull();
    expect(positions(recent.take(3n, 10))).toEqual([4, 5]);
  });

  it('keeps the latest `capacity` events (up to twice as many), and starts afresh on events out of order', () => {
    const recent = new RecentEvents(3);
    recent.committed([at(1), at(2), at(3), at(4), at(5), at(6)]);
    expect(positions(recent.take(0n, 10))).toEqual([1, 2, 3, 4, 5, 6]);
    recent.committed([at(7)]);
    expect(recent.take(0n, 10)).toBeNull();
    expect(recent.take(3n, 10)).toBeNull();
    expect(positions(recent.take(4n, 10))).toEqual([5, 6, 7]);
    // Out of order (never expected: positions only grow): what was kept goes, the new ones stay.
    recent.committed([at(1)]);
    expect(positions(recent.take(0n, 10))).toEqual([1]);
    recent.committed([at(2), at(3), at(4)]);
    expect(positions(recent.take(1n, 10))).toEqual([2, 3, 4]);
    recent.committed([at(2)]);
    expect(positions(recent.take(1n, 10))).toEqual([2]);
    expect(recent.take(2n, 10)).toBeNull();
    expect(recent.take(3n, 10)).toBeNull();
    expect(recent.take(1n, 0)).toBeNull();
  });
});
