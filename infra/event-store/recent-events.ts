import type { StoredEvent } from './port';

/** Events kept at least (the latest; at most twice as many): a follower further behind reads the log. */
export const RECENT_EVENTS = 512;

/**
 * The latest events this process has seen committed, in position order, so that the log's
 * followers (the projections and the two worker outboxes, each reading every event) take what was
 * just appended from memory instead of each reading it back from the file and parsing it again.
 *
 * Only what it surely knows is answered: the events right after `after`, as long as their positions
 * follow one another. Positions are unique and given in order, so no event the log holds can fall
 * between two consecutive ones: what `take` answers is exactly the beginning of what reading the
 * log after `after` would answer (the rest, an event another process appended say, is read from
 * the log when the follower asks again). Every follower gets the same objects: they are read only.
 */
export class RecentEvents {
  private events: StoredEvent[] = [];

  constructor(private readonly capacity = RECENT_EVENTS) {}

  /** Events just committed, in position order (a group commit's, in the order they were written). */
  committed(events: readonly StoredEvent[]): void {
    const last = this.events[this.events.length - 1];
    // Out of order (never expected): start afresh rather than keep a list that is not sorted.
    if (last && events.length > 0 && events[0]!.position <= last.position) this.events = [];
    this.events.push(...events);
    // Trimmed once it holds twice the capacity, not at every commit (each trim copies what is kept).
    if (this.events.length > 2 * this.capacity) this.events = this.events.slice(-this.capacity);
  }

  /** Up to `limit` events from position `after + 1` on, consecutive; null when the first is not kept. */
  take(after: bigint, limit: number): StoredEvent[] | null {
    const events = this.events;
    if (events.length === 0 || limit <= 0) return null;
    // Kept positions are mostly consecutive: look where `after + 1` would be if they all were, then search.
    const first = events[0]!.position;
    let i = Number(after + 1n - first);
    if (i < 0 || i >= events.length || events[i]!.position !== after + 1n) i = this.indexOf(after + 1n);
    if (i < 0) return null;
    const taken = [events[i]!];
    for (let j = i + 1; j < events.length && taken.length < limit && events[j]!.position === events[j - 1]!.position + 1n; j++) taken.push(events[j]!);
    return taken;
  }

  private indexOf(position: bigint): number {
    let low = 0;
    let high = this.events.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const at = this.events[middle]!.position;
      if (at === position) return middle;
      if (at < position) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}
