import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { notFound } from './errors';
import { settlementOf } from './middleware/settlement';
import type { Tag } from './tags';
import { bodyObject, checkQueryString, parseOrThrow } from './validation';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** A request body as an integrator would send it, shown in the API reference (a test parses each with the route's schema). */
export type BodyExample<B = unknown> = Readonly<{ summary: string; value: B }>;

/** A route with a body shows at least one example of it; a route without one has neither. */
type BodySpec =
  | Readonly<{
      body: z.ZodType;
      examples: readonly [BodyExample, ...BodyExample[]];
      /**
       * A cheaper reading of a body `body` surely accepts, giving what its parse would (undefined for
       * any other body, which `body` then reads, so every refusal stays the schema's own).
       */
      acceptedBody?: (body: Record<string, unknown>) => unknown;
    }>
  | Readonly<{ body?: undefined; examples?: undefined; acceptedBody?: undefined }>;

/** Everything the router and the OpenAPI document need to know about one endpoint. */
export type RouteSpec = Readonly<{
  method: Method;
  /** OpenAPI-style path, e.g. `/v1/customers/{id}`. */
  path: string;
  operationId: string;
  /** One line: the operation's name in the reference. */
  summary: string;
  /** What it does and why it refuses (Markdown): what an integrator reads before calling it. */
  description: string;
  tag: Tag;
  query?: z.ZodType;
  status: number;
  /** Another success status answered with the same body (e.g. 200 when the object already existed). */
  alsoStatus?: number;
  /** What `alsoStatus` means, for the OpenAPI document (default: the object already existed). */
  alsoStatusMeaning?: string;
  response: z.ZodType | null;
  /** The success body as CSV, answered `text/csv` when the request's Accept prefers that to JSON. */
  csv?: (body: unknown) => string;
  /** Scope an API key needs; null when any valid key may call it. Absent on admin and public routes. */
  scope?: string | null;
  idempotencyKey?: 'required' | 'optional';
  /** Who may call it: an API key, the admin token, or anyone. */
  auth: 'api_key' | 'admin' | 'none';
  /** Error codes this endpoint may answer with beyond the common ones. */
  errors?: readonly number[];
}> &
  BodySpec;

/** The examples of a body typed as what its schema takes, so an example the schema would refuse is a type error. */
export type TypedExamples<S extends RouteSpec> = S['body'] extends z.ZodType
  ? Readonly<{ examples: readonly [BodyExample<z.input<S['body']>>, ...BodyExample<z.input<S['body']>>[]] }>
  : unknown;

export type HandlerInput<B, Q> = Readonly<{
  req: Request;
  res: Response;
  body: B;
  query: Q;
  params: Record<string, string>;
}>;

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export type RouteRegistry = RouteSpec[];

const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** Mounts a handler that sees a validated body and query; registers the spec for the OpenAPI document. */
export const route = <const S extends RouteSpec>(
  router: Router,
  registry: RouteRegistry,
  spec: S & TypedExamples<S>,
  handler: (input: HandlerInput<Infer<S['body']>, Infer<S['query']>>) => Promise<{ status?: number; body: unknown }>,
  middleware: RequestHandler[] = [],
): void => {
  registry.push(spec);
  const unknown = (req: Request) => notFound('unknown_endpoint', `${req.method} ${req.path} is not part of the API.`);
  // The router would answer OPTIONS itself (200, a list of methods); no route declares it, so it is unknown.
  router.options(expressPath(spec.path), (req, _res, next) => next(unknown(req)));
  // The router matches without regard to case or a trailing slash; the API's paths are exactly as declared.
  const exact = new RegExp(`^${spec.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);
  const exactPath: RequestHandler = (req, _res, next) => (exact.test(req.path) ? next() : next(unknown(req)));
  router[spec.method](expressPath(spec.path), exactPath, ...middleware, async (req: Request, res: Response) => {
    checkQueryString(req.originalUrl, spec.query !== undefined);
    const sent = spec.body ? bodyObject(req.body) : undefined;
    const body = sent && (spec.acceptedBody?.(sent) ?? parseOrThrow(spec.body!, sent));
    const query = spec.query ? parseOrThrow(spec.query, { ...req.query }) : undefined;
    const result = await handler({
      req,
      res,
      body: body as Infer<S['body']>,
      query: query as Infer<S['query']>,
      params: req.params as Record<string, string>,
    });
    const status = result.status ?? spec.status;
    await settlementOf(res)?.succeed(status, result.body);
    if (spec.csv && req.accepts(['application/json', 'text/csv']) === 'text/csv') sendText(res, status, 'text/csv; charset=utf-8', spec.csv(result.body));
    else sendJson(req, res, status, result.body);
  });
};

/**
 * What `res.json` sends (the API sets no JSON replacer, spacing or escaping, nor ETags), written
 * directly where its answer cannot differ: not for GET or HEAD (which Express may answer 304, or
 * without a body), a body-less status, or a Content-Type already chosen. It saves Express's
 * settings lookups and Content-Type parsing on every write.
 */
const sendJson = (req: Request, res: Response, status: number, body: unknown): void => {
  if (req.method === 'GET' || req.method === 'HEAD' || status === 204 || status === 304 || res.getHeader('Content-Type') !== undefined) {
    res.status(status).json(body);
    return;
  }
  sendText(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
};

const sendText = (res: Response, status: number, contentType: string, text: string): void => {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', String(Buffer.byteLength(text)));
  res.end(text);
};
