import type { IncomingMessage, ServerResponse } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import type { Express, Response } from 'express';
import { z } from 'zod';
import { errorStatuses } from '../../api/openapi';
import type { RouteSpec } from '../../api/route';
import { errorObject } from '../../api/schemas/error';

/**
 * Every response the API tests receive is held to its route's spec: a success must have the
 * route's status and parse with its `response` schema, an error must be the one error shape with a
 * status the route documents. Anything else is a violation, and a violation fails the test it
 * happened in (or the file, when it happened in a `beforeAll` or `afterAll`).
 */

const violations: string[] = [];

/** The violations recorded so far, emptying the record. */
export const takeViolations = (): string[] => violations.splice(0);

export const failOnViolations = (): void => {
  const found = takeViolations();
  if (found.length > 0) {
    throw new Error(`${found.length} response(s) did not match their route's spec:\n${found.map((v) => `  - ${v}`).join('\n')}`);
  }
};

afterEach(failOnViolations);
afterAll(failOnViolations);

const templateOf = (path: string): RegExp =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);

const specFor = (routes: readonly RouteSpec[], method: string, path: string): RouteSpec | undefined =>
  routes.find((spec) => spec.method === method.toLowerCase() && templateOf(spec.path).test(path));

const describeIssues = (error: z.ZodError): string =>
  error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(body)'}: ${issue.message}`).join('; ');

/** The first place where `actual` has something `expected` lacks: an unknown field, as zod would strip it. */
const extraAt = (expected: unknown, actual: unknown, path: string): string | null => {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (const [i, item] of actual.entries()) {
      const found = extraAt(expected[i], item, `${path}${path ? '.' : ''}${i}`);
      if (found) return found;
    }
    return null;
  }
  if (expected && actual && typeof expected === 'object' && typeof actual === 'object') {
    for (const [key, value] of Object.entries(actual)) {
      const at = `${path}${path ? '.' : ''}${key}`;
      if (!(key in expected)) return `${at}: not in the schema`;
      const found = extraAt((expected as Record<string, unknown>)[key], value, at);
      if (found) return found;
    }
    return null;
  }
  return isDeepStrictEqual(expected, actual) ? null : `${path || '(body)'}: changed by parsing`;
};

/** Parses strictly: a missing, mistyped or unknown field (at any depth) is a problem. */
const problemsOf = (schema: z.ZodType, body: unknown): string | null => {
  const parsed = schema.safeParse(body);
  if (!parsed.success) return describeIssues(parsed.error);
  return extraAt(parsed.data, body, '');
};

/** What is wrong with one response, or null. `body` is the JSON sent, or undefined when none was. */
export const responseViolation = (
  routes: readonly RouteSpec[],
  response: Readonly<{ method: string; path: string; status: number; body: unknown }>,
): string | null => {
  const { method, path, status, body } = response;
  const spec = specFor(routes, method, path);
  const name = spec ? `${spec.method.toUpperCase()} ${spec.path}` : `${method.toUpperCase()} ${path} (no route)`;
  const fail = (problem: string) => `${name} answered ${status}: ${problem}`;
  if (status >= 400) {
    if (spec && !errorStatuses(spec).includes(status)) return fail(`the route does not document ${status} (${errorStatuses(spec).join(', ')})`);
    if (body === undefined) return fail('no JSON error body');
    const problem = problemsOf(errorObject, body);
    return problem ? fail(`not the error shape: ${problem}`) : null;
  }
  if (!spec) return fail('no route declares this endpoint');
  if (status !== spec.status && status !== spec.alsoStatus) {
    return fail(`the route answers ${[spec.status, spec.alsoStatus].filter(Boolean).join(' or ')}`);
  }
  if (!spec.response) return null;
  if (body === undefined) return fail('no JSON body');
  const problem = problemsOf(spec.response, body);
  return problem ? fail(problem) : null;
};

/** Records each response's violation, if any, as it is sent. */
const watch = (app: Express, routes: readonly RouteSpec[], req: IncomingMessage, res: ServerResponse): void => {
  const method = req.method ?? 'GET';
  const path = new URL(req.url ?? '/', 'http://test').pathname;
  const record = (body: unknown) => {
    const violation = responseViolation(routes, { method, path, status: res.statusCode, body });
    if (violation) violations.push(violation);
  };
  let sent = false;
  const json = (app.response as Response).json;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  // Own properties: Express gives `res` its response prototype later, and an own property wins over it.
  Object.assign(res, {
    json(this: Response, value: unknown) {
      sent = true;
      // Checked as it is sent, so before the client can read it: as the wire has it (JSON drops undefined).
      record(value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
      return json.call(this, value);
    },
    // A JSON text the route wrote itself, without `res.json` (api/route.ts `sendJson`).
    end(...args: unknown[]) {
      const [chunk] = args;
      if (!sent && typeof chunk === 'string' && String(res.getHeader('Content-Type')).startsWith('application/json')) {
        sent = true;
        record(JSON.parse(chunk));
      }
      // The CSV a route declares (`csv`) in place of its JSON, when the request's Accept asked for it.
      if (!sent && typeof chunk === 'string' && String(res.getHeader('Content-Type')).startsWith('text/csv')) {
        sent = true;
        if (!specFor(routes, method, path)?.csv) violations.push(`${method} ${path} answered CSV, which its route does not declare`);
      }
      return end(...args);
    },
  });
  res.once('finish', () => {
    if (!sent) record(undefined);
  });
};

const CONSOLE_PATH = /^\/console(?:[/?]|$)/;

/** The app as supertest sees it, every API response checked; Express's own properties (its router) stay visible. */
export const checkedApp = (app: Express, routes: readonly RouteSpec[]): Express => {
  const checked = (req: IncomingMessage, res: ServerResponse) => {
    // The console answers HTML pages, not the API's JSON: its own tests check them.
    if (!CONSOLE_PATH.test(req.url ?? '')) watch(app, routes, req, res);
    return app(req as Parameters<Express>[0], res as Parameters<Express>[1]);
  };
  Object.setPrototypeOf(checked, app);
  return checked as unknown as Express;
};
