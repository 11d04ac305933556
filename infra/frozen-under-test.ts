/** Jest runs with NODE_ENV=test: there shared data is frozen, so code that changes it fails loudly instead of changing what others hold. */
const UNDER_TEST = process.env.NODE_ENV === 'test';

const deepFreeze = (value: unknown): void => {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  const prototype = Object.getPrototypeOf(value) as unknown;
  // Plain data only: a class instance (a date library's, say) may cache inside itself.
  if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
};

/** The value itself, deeply frozen under test (plain objects and arrays); untouched otherwise. */
export const frozenUnderTest = <T>(value: T): T => {
  if (UNDER_TEST) deepFreeze(value);
  return value;
};
