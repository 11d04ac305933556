import fc from 'fast-check';
import { nestingDepth } from '../../api/middleware/json-nesting';

/** The nesting of a parsed value: what the scan of its text must find. */
const depthOf = (value: unknown): number =>
  value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

// Strings full of what the scan must not count or must skip: brackets, quotes and runs of backslashes.
const tricky = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ' ', 'é') });
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, tricky, fc.integer(), fc.constant(null), fc.array(tie('node')), fc.dictionary(tricky, tie('node'))),
})).node;

describe('the nesting depth of a JSON body', () => {
  it('is the depth of the value it holds, whatever its strings hold', () => {
    fc.assert(fc.property(value, (v) => expect(nestingDepth(JSON.stringify(v), 1000)).toBe(depthOf(v))));
  });

  it('stops once past the limit, and an unterminated string ends the scan', () => {
    expect(nestingDepth(`${'['.repeat(50)}${']'.repeat(50)}`, 20)).toBe(21);
    expect(nestingDepth('{"a":"\\\\"}', 20)).toBe(1);
    expect(nestingDepth('{"a":"\\"[[[', 20)).toBe(1);
  });
});
