import fc from 'fast-check';
import { fingerprintOf } from '../../domain/shared/fingerprint';
import { FingerprintTable } from '../../projections/usage-ids/fingerprint-table';

describe('FingerprintTable', () => {
  it('answers the values added with each text’s fingerprint, like a map of the texts, as it grows', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 12 }), fc.nat({ max: 50 })), { maxLength: 600 }), (pairs) => {
        const table = new FingerprintTable(2);
        const model = new Map<string, Set<number>>();
        for (const [text, value] of pairs) {
          table.add(fingerprintOf(text), value);
          model.set(text, (model.get(text) ?? new Set()).add(value));
        }
        for (const [text, values] of model) expect(new Set(table.valuesOf(fingerprintOf(text)))).toEqual(values);
        expect(table.size).toBe([...model.values()].reduce((sum, values) => sum + values.size, 0));
        expect(table.valuesOf(fingerprintOf('never added, longer than twelve'))).toEqual([]);
      }),
    );
  });

  it('holds every value of one fingerprint, once each', () => {
    const table = new FingerprintTable(4);
    const fingerprint = { high: 7, low: 3 };
    for (const value of [1, 2, 1, 3]) table.add(fingerprint, value);
    table.add({ high: 8, low: 3 }, 9);
    expect([...table.valuesOf(fingerprint)].sort()).toEqual([1, 2, 3]);
    expect(table.size).toBe(4);
  });

  it('tells fingerprints of different texts apart by both halves', () => {
    const texts = Array.from({ length: 100_000 }, (_, i) => `org_1:evt_${i}`);
    const fingerprints = new Set(texts.map((text) => `${fingerprintOf(text).high}:${fingerprintOf(text).low}`));
    const lows = new Set(texts.map((text) => fingerprintOf(text).low));
    expect(fingerprints.size).toBe(texts.length);
    // 32 bits alone collide a little over 100,000 texts (about 1 pair expected); the pairs of halves do not.
    expect(lows.size).toBeGreaterThan(texts.length - 10);
  });

  it('gives a copy of its arrays that a table made of them answers like it, and the original goes on alone', () => {
    const table = new FingerprintTable(4);
    for (let value = 0; value < 10; value++) table.add(fingerprintOf(`id_${value}`), value);
    const copied = FingerprintTable.of(table.copy());
    table.add(fingerprintOf('id_later'), 99);
    expect(Array.from({ length: 10 }, (_, value) => copied.valuesOf(fingerprintOf(`id_${value}`)))).toEqual(Array.from({ length: 10 }, (_, value) => [value]));
    expect([copied.size, table.size, copied.valuesOf(fingerprintOf('id_later'))]).toEqual([10, 11, []]);
    expect(() => FingerprintTable.of({ ...table.copy(), low: new Uint32Array(2) })).toThrow(RangeError);
  });

  it('refuses a number of slots that is not a power of two', () => {
    expect(() => new FingerprintTable(100)).toThrow(RangeError);
  });
});
