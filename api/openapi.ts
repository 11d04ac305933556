import { z } from 'zod';
import type { BodyExample, RouteSpec } from './route';
import { documentedSchemas } from './schemas/documented-as';
import { errorObject } from './schemas/error';
import { TAGS, type Tag } from './tags';

type Json = Record<string, unknown>;

const ERROR_STATUSES: Record<number, string> = {
  400: 'Malformed JSON body',
  401: 'Missing, malformed, unknown, revoked or expired key',
  403: 'Valid key not allowed',
  404: 'No such object or endpoint',
  409: 'Clash with current state or an earlier request with the same key',
  413: 'Body over 100,000 characters',
  422: 'Invalid request',
  429: 'Too many requests',
  500: 'Server-side failure',
  502: 'The accounting system refused or failed',
};

/** The error statuses a route may answer with: the common ones, its own, and those its auth and idempotency bring. */
export const errorStatuses = (route: RouteSpec): number[] => {
  const statuses = new Set<number>([400, 404, 413, 422, 429, 500, ...(route.errors ?? [])]);
  if (route.auth !== 'none') statuses.add(401);
  if (route.auth === 'api_key') statuses.add(403);
  if (route.idempotencyKey) statuses.add(409);
  return [...statuses].sort();
};

/** Converts one zod schema; named schemas (`.meta({ id })`) become shared components. */
const toSchema = (schema: z.ZodType, io: 'input' | 'output', components: Json): Json => {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const documented = documentedSchemas.get(zodSchema);
      if (!documented) return;
      for (const key of Object.keys(jsonSchema)) if (key !== 'description') delete (jsonSchema as Json)[key];
      Object.assign(jsonSchema, documented);
    },
  }) as Json;
  const defs = (json.$defs ?? {}) as Json;
  delete json.$defs;
  delete json.$schema;
  const relink = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(relink);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) => [
          key,
          key === '$ref' && typeof inner === 'string' ? inner.replace('#/$defs/', '#/components/schemas/') : relink(inner),
        ]),
      );
    }
    return value;
  };
  // A named root comes back as a $ref into $defs; both land in components the same way.
  for (const [name, def] of Object.entries(defs)) components[name] = relink(def);
  return relink(json) as Json;
};

/** Descriptions are written as indented template literals: their common indentation and outer blank lines go. */
const unindent = (text: string): string => {
  const lines = text.replace(/^\s*\n|\s+$/g, '').split('\n');
  const indent = Math.min(...lines.filter((line) => line.trim()).map((line) => line.length - line.trimStart().length));
  return lines.map((line) => line.slice(indent)).join('\n');
};

/** The media type's named examples, each keyed by its summary in kebab case. */
const examplesOf = (examples: readonly BodyExample[]): Json =>
  Object.fromEntries(examples.map(({ summary, value }) => [summary.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''), { summary, value }]));

const operation = (route: RouteSpec, components: Json): Json => {
  const parameters: Json[] = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (route.query) {
    const query = toSchema(route.query, 'input', components) as { properties?: Json; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({ name, in: 'query', required: (query.required ?? []).includes(name), schema });
    }
  }
  if (route.idempotencyKey) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: route.idempotencyKey === 'required',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
    });
  }
  const content = {
    ...(route.response ? { 'application/json': { schema: toSchema(route.response, 'output', components) } } : {}),
    ...(route.csv ? { 'text/csv': { schema: { type: 'string', description: 'The same rows as CSV: a header line of their fields, then a line a row' } } } : {}),
  };
  const success = Object.keys(content).length > 0 ? { content } : {};
  const responses: Json = { [String(route.status)]: { description: 'Success', ...success } };
  if (route.alsoStatus) {
    responses[String(route.alsoStatus)] = { description: `Success: ${route.alsoStatusMeaning ?? 'the object already existed'}`, ...success };
  }
  for (const status of errorStatuses(route)) {
    responses[String(status)] = {
      description: ERROR_STATUSES[status] ?? 'Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: unindent(route.description),
    tags: [route.tag],
    ...(route.scope ? { 'x-scope': route.scope } : {}),
    ...(route.auth === 'none' ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(route.body, 'input', components), examples: examplesOf(route.examples) } } } }
      : {}),
    responses,
  };
};

/** The OpenAPI 3.1 document of the routes under one prefix, generated from the schemas they validate with. */
export const openApiDocument = (routes: readonly RouteSpec[], info: { title: string; description: string }): Json => {
  const components: Json = {};
  toSchema(errorObject, 'output', components);
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method]: operation(route, components) };
  }
  const used = new Set(routes.map((route) => route.tag));
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: '1.0.0',
      description: unindent(info.description),
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      contact: { name: 'Subscription billing engine maintainers' },
    },
    servers: [{ url: '/', description: 'This service' }],
    security: [{ bearer: [] }],
    tags: Object.entries(TAGS)
      .filter(([name]) => used.has(name as Tag))
      .map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key, or the admin token on /admin/v1' } },
    },
  };
};
