import type { Fingerprint } from '../../domain/shared/fingerprint';

const NONE: readonly number[] = [];

/** A table's contents: each slot's fingerprint halves and value plus one (0: empty), and how many slots are used. */
export type FingerprintArrays = Readonly<{ high: Uint32Array; low: Uint32Array; values: Uint32Array; used: number }>;

/**
 * A set of (fingerprint, value) pairs in three typed arrays: 12 bytes a slot, at most half of them
 * used (24 to 48 bytes a pair, where a `Map` of the texts takes 100 and more). Open addressing with
 * linear probing; a fingerprint may be held with several values (two texts hashing alike).
 */
export class FingerprintTable {
  private high: Uint32Array;
  private low: Uint32Array;
  /** Each slot's value plus one: 0 marks an empty slot. */
  private values: Uint32Array;
  private used = 0;

  constructor(slots = 1024) {
    if (slots < 2 || (slots & (slots - 1)) !== 0) throw new RangeError(`slots must be a power of two, not ${slots}`);
    this.high = new Uint32Array(slots);
    this.low = new Uint32Array(slots);
    this.values = new Uint32Array(slots);
  }

  /** Its three arrays, copied (the table goes on changing), and the pairs they hold. */
  copy(): FingerprintArrays {
    return { high: this.high.slice(), low: this.low.slice(), values: this.values.slice(), used: this.used };
  }

  /** Its three arrays as they are, not copied: for a table that no longer changes. */
  contents(): FingerprintArrays {
    return { high: this.high, low: this.low, values: this.values, used: this.used };
  }

  /** A table holding what `copy` gave (the arrays are taken, not copied). */
  static of(arrays: FingerprintArrays): FingerprintTable {
    const { high, low, values, used } = arrays;
    const table = new FingerprintTable(values.length);
    if (high.length !== values.length || low.length !== values.length) throw new RangeError('the arrays differ in length');
    table.high = high;
    table.low = low;
    table.values = values;
    table.used = used;
    return table;
  }

  /** The pairs held. */
  get size(): number {
    return this.used;
  }

  /** Adds the pair unless held already; `value` from 0 to 2^32 - 2. */
  add(fingerprint: Fingerprint, value: number): void {
    if ((this.used + 1) * 2 > this.values.length) this.grow();
    if (this.place(fingerprint.high, fingerprint.low, value + 1)) this.used++;
  }

  /** The values held with the fingerprint, in no particular order. */
  valuesOf(fingerprint: Fingerprint): readonly number[] {
    const { high, low } = fingerprint;
    const mask = this.values.length - 1;
    let found: number[] | null = null;
    for (let slot = low & mask; this.values[slot] !== 0; slot = (slot + 1) & mask) {
      if (this.low[slot] === low && this.high[slot] === high) (found ??= []).push(this.values[slot]! - 1);
    }
    return found ?? NONE;
  }

  /** Whether the pair was new. */
  private place(high: number, low: number, stored: number): boolean {
    const mask = this.values.length - 1;
    let slot = low & mask;
    for (; this.values[slot] !== 0; slot = (slot + 1) & mask) {
      if (this.values[slot] === stored && this.low[slot] === low && this.high[slot] === high) return false;
    }
    this.high[slot] = high;
    this.low[slot] = low;
    this.values[slot] = stored;
    return true;
  }

  private grow(): void {
    const { high, low, values } = this;
    this.high = new Uint32Array(values.length * 2);
    this.low = new Uint32Array(values.length * 2);
    this.values = new Uint32Array(values.length * 2);
    for (let slot = 0; slot < values.length; slot++) if (values[slot] !== 0) this.place(high[slot]!, low[slot]!, values[slot]!);
  }
}
