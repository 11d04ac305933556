/** The batches' two arrays (subscription number, revision), `count` of them used. */
export type UsageBatchArrays = Readonly<{ subscriptions: Uint32Array; revisions: Uint32Array; count: number }>;

/**
 * Every usage batch the index read (a `UsageRecorded` event), by number in the order read: the
 * number of the subscription whose stream holds it and its revision there. The index's value for an
 * id is its batch's number, so a lookup names the one event to read to compare an id's details.
 * 8 bytes a batch (a batch holds up to 100 ids).
 */
export class UsageBatches {
  private subscriptions: Uint32Array;
  private revisions: Uint32Array;
  private used: number;
  /** Per subscription number, the revision of its last batch read (-1: none). */
  private readonly lastRevisions: number[] = [];

  private constructor(arrays: UsageBatchArrays) {
    this.subscriptions = arrays.subscriptions;
    this.revisions = arrays.revisions;
    this.used = arrays.count;
    for (let batch = 0; batch < this.used; batch++) this.lastRevisions[this.subscriptions[batch]!] = this.revisions[batch]!;
  }

  static empty(): UsageBatches {
    return new UsageBatches({ subscriptions: new Uint32Array(1024), revisions: new Uint32Array(1024), count: 0 });
  }

  /** Batches as a snapshot held them (the arrays are taken, not copied). */
  static of(arrays: UsageBatchArrays): UsageBatches {
    return new UsageBatches(arrays);
  }

  get count(): number {
    return this.used;
  }

  /** The number of the batch at `revision` of the subscription's stream. */
  add(subscription: number, revision: number): number {
    if (this.used === this.subscriptions.length) {
      this.subscriptions = grown(this.subscriptions);
      this.revisions = grown(this.revisions);
    }
    this.subscriptions[this.used] = subscription;
    this.revisions[this.used] = revision;
    this.lastRevisions[subscription] = revision;
    return this.used++;
  }

  subscriptionOf(batch: number): number {
    return this.subscriptions[batch]!;
  }

  revisionOf(batch: number): number {
    return this.revisions[batch]!;
  }

  /** The revision of the subscription's last batch read; -1 when none was. */
  lastRevisionOf(subscription: number): number {
    return this.lastRevisions[subscription] ?? -1;
  }

  /** The arrays as far as used, copied (batches go on being added). */
  copy(): UsageBatchArrays {
    return { subscriptions: this.subscriptions.slice(0, this.used), revisions: this.revisions.slice(0, this.used), count: this.used };
  }
}

const grown = (array: Uint32Array): Uint32Array => {
  const larger = new Uint32Array(Math.max(1024, array.length * 2));
  larger.set(array);
  return larger;
};
