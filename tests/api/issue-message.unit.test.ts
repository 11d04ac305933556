import { z } from 'zod';
import { ApiError } from '../../api/errors';
import { parseOrThrow } from '../../api/validation';

const body = z.strictObject({
  code: z.string().min(1).max(50),
  units: z.number().int().min(0).max(999_999_999).optional(),
  rate: z.number().gt(0).optional(),
  active: z.boolean().optional(),
  when: z.enum(['period_end', 'now']).optional(),
  mode: z.literal('test').optional(),
  tags: z.array(z.string()).min(1).max(2).optional(),
  address: z.strictObject({ city: z.string() }).optional(),
});

const refusal = (input: unknown): { param: string | undefined; message: string } => {
  try {
    parseOrThrow(body, input);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'invalid_parameter') throw error;
    return { param: error.param, message: error.message };
  }
  throw new Error('accepted');
};

describe("a refused field's message", () => {
  it.each([
    [{}, 'code', 'code is required.'],
    [{ code: 5 }, 'code', 'code: must be a string; received 5.'],
    [{ code: null }, 'code', 'code: must be a string; received null.'],
    [{ code: ['A'] }, 'code', 'code: must be a string; received an array.'],
    [{ code: '' }, 'code', 'code: must be at least 1 character.'],
    [{ code: 'x'.repeat(51) }, 'code', 'code: must be at most 50 characters.'],
    [{ code: 'A', units: '3' }, 'units', 'units: must be a number; received a string.'],
    [{ code: 'A', units: 1.5 }, 'units', 'units: must be a whole number; received 1.5.'],
    [JSON.parse('{"code":"A","units":1e400}'), 'units', 'units: must be a number; received Infinity.'],
    [{ code: 'A', units: -1 }, 'units', 'units: must be at least 0.'],
    // Past the safe integers, the schema's own bound is the one said, not zod's 9007199254740991.
    [{ code: 'A', units: 1e20 }, 'units', 'units: must be at most 999999999.'],
    [{ code: 'A', units: -1e20 }, 'units', 'units: must be at least 0.'],
    [{ code: 'A', rate: 0 }, 'rate', 'rate: must be greater than 0.'],
    [{ code: 'A', active: 'yes' }, 'active', 'active: must be true or false; received a string.'],
    [{ code: 'A', when: 'later' }, 'when', 'when: must be one of "period_end", "now".'],
    [{ code: 'A', mode: 'live' }, 'mode', 'mode: must be "test".'],
    [{ code: 'A', tags: [] }, 'tags', 'tags: must have at least 1 item.'],
    [{ code: 'A', tags: ['a', 'b', 'c'] }, 'tags', 'tags: must have at most 2 items.'],
    [{ code: 'A', address: 'Leeds' }, 'address', 'address: must be an object; received a string.'],
    [{ code: 'A', address: {} }, 'address.city', 'address.city is required.'],
    [{ code: 'A', colour: 'red' }, 'colour', 'Unknown field colour.'],
  ])('%j is refused naming %s: %s', (input, param, message) => {
    expect(refusal(input)).toEqual({ param, message });
  });
});
