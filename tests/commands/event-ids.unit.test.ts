import { newEventId } from '../../infra/ids';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('event ids', () => {
  it('are UUIDs of version 7 whose first 48 bits are the time in milliseconds', () => {
    const id = newEventId(0x0192_3456_789a);
    expect(id).toMatch(UUID_V7);
    expect(id.slice(0, 13)).toBe('01923456-789a');
  });

  it('made later sort after those made earlier, and never repeat', () => {
    const earlier = Array.from({ length: 1000 }, () => newEventId(1_700_000_000_000));
    const later = Array.from({ length: 1000 }, () => newEventId(1_700_000_000_001));
    for (const id of [...earlier, ...later]) expect(id).toMatch(UUID_V7);
    expect(earlier.every((a) => later.every((b) => a < b))).toBe(true);
    expect(new Set([...earlier, ...later]).size).toBe(2000);
  });
});
