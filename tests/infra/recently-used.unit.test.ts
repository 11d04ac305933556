import fc from 'fast-check';
import { RecentlyUsed } from '../../infra/recently-used';

describe('RecentlyUsed', () => {
  it('keeps the most recently set entries: past the capacity by a tenth, the oldest go down to it, each told', () => {
    const dropped: string[] = [];
    const map = new RecentlyUsed<string, number>(10, (key) => dropped.push(key));
    for (let i = 0; i < 11; i++) map.set(`k${i}`, i);
    expect(map.size).toBe(11);
    map.set('k0', 0); // set again: the most recent now
    map.set('k11', 11);
    expect(dropped).toEqual(['k1', 'k2']);
    expect([...map.keys()]).toEqual(['k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9', 'k10', 'k0', 'k11']);
    expect(map.get('k1')).toBeUndefined();
    expect(map.get('k0')).toBe(0);
  });

  it('holds exactly the entries a plain least-recently-set list would, within the capacity and its tenth (property)', () => {
    const op = fc.oneof(fc.record({ set: fc.integer({ min: 0, max: 30 }) }), fc.record({ remove: fc.integer({ min: 0, max: 30 }) }));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(op, { maxLength: 200 }), (capacity, ops) => {
        const map = new RecentlyUsed<number, number>(capacity);
        let order: number[] = [];
        for (const o of ops) {
          if ('set' in o) {
            map.set(o.set, o.set);
            order = [...order.filter((k) => k !== o.set), o.set];
            if (order.length > capacity + Math.ceil(capacity / 10)) order = order.slice(-capacity);
          } else {
            map.delete(o.remove);
            order = order.filter((k) => k !== o.remove);
          }
          expect([...map.keys()]).toEqual(order);
        }
      }),
    );
  });
});
