import { z } from 'zod';
import { type EventDefinition, UnknownEventVersion, upcast } from '../../domain/shared/event-definition';

describe('upcasting events on read', () => {
  // Version 1 stored a single `name`; version 2 splits it, version 3 adds a default flag.
  const definition: EventDefinition = {
    type: 'Example',
    version: 3,
    schema: z.object({ first: z.string(), last: z.string(), vip: z.boolean() }),
    upcasters: {
      1: (data) => {
        const [first = '', last = ''] = String((data as { name: string }).name).split(' ');
        return { first, last };
      },
      2: (data) => ({ ...(data as object), vip: false }),
    },
  };

  it('lifts an old version step by step to the current one', () => {
    expect(upcast(definition, 1, { name: 'Ada Lovelace' })).toEqual({ first: 'Ada', last: 'Lovelace', vip: false });
    expect(upcast(definition, 2, { first: 'Ada', last: 'L' })).toEqual({ first: 'Ada', last: 'L', vip: false });
    expect(upcast(definition, 3, { first: 'A', last: 'B', vip: true })).toEqual({ first: 'A', last: 'B', vip: true });
  });

  it('refuses a version newer than the code, and data that does not fit the schema', () => {
    expect(() => upcast(definition, 4, {})).toThrow(UnknownEventVersion);
    expect(() => upcast(definition, 3, { first: 'A' })).toThrow();
  });
});
