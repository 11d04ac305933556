import type { z } from 'zod';
import { invalidParameter } from './errors';
import { issueMessage, sayableIssue } from './issue-message';

const paramOf = (issue: z.core.$ZodIssue): string => {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') path.push(issue.keys[0] ?? '');
  return path.join('.');
};

const valueAt = (root: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined), root);

/** Parses with the route's zod schema; the first problem becomes `422 invalid_parameter` naming its field. */
export const parseOrThrow = <S extends z.ZodType>(schema: S, input: unknown): z.infer<S> => {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = sayableIssue(result.error.issues);
  const param = paramOf(issue);
  throw invalidParameter(param || undefined, issueMessage(issue, param, valueAt(input, issue.path)));
};

/** A request body must be a JSON object (an absent body counts as `{}`). */
export const bodyObject = (body: unknown): Record<string, unknown> => {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidParameter(undefined, 'The body must be a JSON object.');
  }
  return body as Record<string, unknown>;
};

const decoded = (text: string): string | null => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
};

/**
 * The query string, read strictly: every name and value must be valid percent-encoded UTF-8 (never
 * silently replaced by U+FFFD), each name sent once, and a route without query parameters takes
 * none. Each refusal is `422 invalid_parameter` naming the parameter.
 */
export const checkQueryString = (url: string, takesQuery: boolean): void => {
  const start = url.indexOf('?');
  if (start < 0) return;
  const seen = new Set<string>();
  for (const pair of url.slice(start + 1).split('&')) {
    if (pair === '') continue;
    const [rawName = '', ...rest] = pair.split('=');
    const name = decoded(rawName);
    if (name === null || decoded(rest.join('=')) === null) {
      throw invalidParameter(name ?? rawName, `${name ?? rawName}: not valid percent-encoded UTF-8.`);
    }
    if (!takesQuery) throw invalidParameter(name, `Unknown query parameter ${name}: this endpoint takes none.`);
    if (seen.has(name)) throw invalidParameter(name, `${name}: sent more than once; send it once (a list takes comma-separated values).`);
    seen.add(name);
  }
};
