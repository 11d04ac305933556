import type { z } from 'zod';

const EXPECTED: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

/** What was sent, said without echoing text or structures back. */
const received = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : typeof value;
};

const plural = (count: number | bigint, unit: string): string => `${count} ${unit}${count === 1 ? '' : 's'}`;

/** A size bound in the words of what it bounds: an array's items, a string's characters, or the value itself. */
const bound = (issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string => {
  const [limit, side] = issue.code === 'too_small' ? [issue.minimum, 'least'] : [issue.maximum, 'most'];
  if (issue.origin === 'array' || issue.origin === 'set') return `must have at ${side} ${plural(limit, 'item')}`;
  if (issue.origin === 'string') return `must be at ${side} ${plural(limit, 'character')}`;
  if (issue.inclusive === false) return `must be ${side === 'least' ? 'greater' : 'less'} than ${limit}`;
  return `must be at ${side} ${limit}`;
};

/**
 * zod's integers carry a bound of their own, the safe range, reported before the schema's own
 * (`units: 1e20` is over 9007199254740991 before it is over 999999999): the schema's is the one to say.
 */
export const sayableIssue = (issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue => {
  const [first] = issues as [z.core.$ZodIssue];
  const safeRange = (first.code === 'too_big' || first.code === 'too_small') && first.origin === 'int';
  const samePath = (issue: z.core.$ZodIssue) => issue.path.length === first.path.length && issue.path.every((key, i) => key === first.path[i]);
  return (safeRange && issues.find((issue) => issue !== first && samePath(issue))) || first;
};

/** The sentence a `422 invalid_parameter` carries for one of zod's issues with the field `param`, whose value was `input`. */
export const issueMessage = (issue: z.core.$ZodIssue, param: string, input: unknown): string => {
  if (issue.code === 'unrecognized_keys') return `Unknown field ${param}.`;
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && input === undefined) return `${param} is required.`;
  if (issue.code === 'invalid_type') {
    const expected = EXPECTED[issue.expected];
    if (expected) return `${param}: must be ${expected}; received ${received(input)}.`;
  }
  if (issue.code === 'too_small' || issue.code === 'too_big') return `${param}: ${bound(issue)}.`;
  if (issue.code === 'invalid_value') return `${param}: must be ${issue.values.length === 1 ? '' : 'one of '}${issue.values.map((v) => (typeof v === 'string' ? JSON.stringify(v) : String(v))).join(', ')}.`;
  return `${param}: ${issue.message}`;
};
