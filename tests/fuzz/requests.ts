import fc from 'fast-check';
import { COSTLY_BODIES } from './slow-inputs';
import { type Hints, type JsonSchema, optionalsSometimes, valueOf } from './schema-arbitrary';

type Parameter = Readonly<{ name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: JsonSchema }>;
type OpenApiOperation = Readonly<{
  operationId: string;
  security?: readonly unknown[];
  parameters?: readonly Parameter[];
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
}>;
export type OpenApiDocument = Readonly<{
  paths: Readonly<Record<string, Readonly<Record<string, OpenApiOperation>>>>;
  components: { schemas: Readonly<Record<string, JsonSchema>> };
}>;

/** One operation of a served document, as the fuzzer drives it. */
export type Operation = Readonly<{
  id: string;
  operationId: string;
  method: string;
  path: string;
  admin: boolean;
  open: boolean;
  parameters: readonly Parameter[];
  body: JsonSchema | null;
  components: Readonly<Record<string, JsonSchema>>;
}>;

export const operationsOf = (document: OpenApiDocument): Operation[] =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      id: `${method.toUpperCase()} ${path} (${operation.operationId})`,
      operationId: operation.operationId,
      method: method.toUpperCase(),
      path,
      admin: path.startsWith('/admin/'),
      open: operation.security !== undefined && operation.security.length === 0,
      parameters: operation.parameters ?? [],
      body: operation.requestBody?.content['application/json'].schema ?? null,
      components: document.components.schemas,
    })),
  );

/** A request as sent: the raw path and query (so malformed escapes reach the server), headers and body bytes. */
export type FuzzRequest = Readonly<{
  method: string;
  path: string;
  query: string;
  headers: Readonly<Record<string, string>>;
  body: string | Buffer | null;
  /** What was done to the valid request, for the failure report. */
  mutation: string;
}>;

export type Credentials = Readonly<{ apiKey: string; adminToken: string }>;

/** Path parameter values that exist, by parameter name and path. */
export type PathValues = (path: string, name: string) => fc.Arbitrary<string>;

const HOSTILE_VALUES: unknown[] = [
  null,
  -1,
  0,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  999_999_999_999,
  '',
  ' ',
  'x'.repeat(5000),
  '\u0000',
  '\uD800',
  '%FF',
  '1e1',
  '0x2',
  '9999-12-31',
  '10000-01-01',
  '1969-12-31',
  '2026-02-30',
  '999999999999.9999',
  '-1',
  {},
  [],
  [null],
  { nested: { deeper: [1, 2, 3] } },
  true,
  '__proto__',
];

const HOSTILE_SEGMENTS = ['%', '%E0%A4%A', '%FF', '%C0%AF', '%00', '..', '%2e%2e', 'x'.repeat(3000), 'cus_doesnotexist', 'org_', '%20', '\u00e9'];

const HOSTILE_QUERIES = ['limit=1e1', 'limit=0x2', 'limit=2.0', 'limit=-1', 'limit=0', 'limit=101', 'limit=1&limit=2', 'unknown=1', 'code=%FF', 'code=%', 'status=nope', 'status=', 'starting_after=cus_nope', 'starting_after=%E0%A4', 'a[b]=1', '=', '&&&'];

const HOSTILE_BODIES: (string | Buffer)[] = [
  '',
  '{',
  '{"a":}',
  'null',
  '[]',
  '"text"',
  '12',
  'true',
  '{"a":1,"a":2}',
  ...COSTLY_BODIES,
  `{"padding":"${'x'.repeat(100_001)}"}`,
  Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
];

const HOSTILE_KEYS = ['', ' ', 'has space', 'x'.repeat(256), 'k'.repeat(20_000), '\t'];

const encodeQuery = (values: Record<string, unknown>): string =>
  Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');

/** A request the document says is well formed, with values from `hints` where the document cannot say what exists. */
export const validRequest = (operation: Operation, credentials: Credentials, pathValues: PathValues, hints: Hints): fc.Arbitrary<FuzzRequest> => {
  const pathParameters = operation.parameters.filter((p) => p.in === 'path');
  const queryParameters = operation.parameters.filter((p) => p.in === 'query');
  const idempotency = operation.parameters.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
  return fc
    .record({
      path: fc.record(Object.fromEntries(pathParameters.map((p) => [p.name, pathValues(operation.path, p.name)]))),
      query: optionalsSometimes(
        Object.fromEntries(queryParameters.map((p) => [p.name, valueOf(p.schema, operation.components, hints, `query.${p.name}`)])),
        queryParameters.filter((p) => p.required).map((p) => p.name),
      ),
      key: idempotency ? (idempotency.required ? fc.uuid() : fc.option(fc.uuid(), { nil: undefined })) : fc.constant(undefined),
      body: operation.body ? valueOf(operation.body, operation.components, hints, `body.${operation.operationId}`) : fc.constant(undefined),
    })
    .map(({ path, query, key, body }) => ({
      method: operation.method,
      path: operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent((path as Record<string, string>)[name]!)),
      query: encodeQuery(query),
      headers: {
        ...(operation.open ? {} : { Authorization: `Bearer ${operation.admin ? credentials.adminToken : credentials.apiKey}` }),
        ...(key !== undefined ? { 'Idempotency-Key': key } : {}),
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body === undefined ? null : JSON.stringify(body),
      mutation: 'none',
    }));
};

type Mutation = (request: FuzzRequest) => fc.Arbitrary<FuzzRequest>;

const withBody = (request: FuzzRequest, edit: (body: Record<string, unknown>) => fc.Arbitrary<unknown>, label: string): fc.Arbitrary<FuzzRequest> => {
  const parsed = typeof request.body === 'string' ? (JSON.parse(request.body) as unknown) : null;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return fc.constant(request);
  return edit(parsed as Record<string, unknown>).map((body) => ({ ...request, body: JSON.stringify(body), mutation: label }));
};

const mutations: Mutation[] = [
  // A field dropped, added, or given a hostile value (at the top or one level down).
  (request) =>
    withBody(
      request,
      (body) => (Object.keys(body).length ? fc.constantFrom(...Object.keys(body)).map((key) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== key))) : fc.constant(body)),
      'field dropped',
    ),
  (request) => withBody(request, (body) => fc.constantFrom('unknown_field', 'Code', 'id', 'object').map((key) => ({ ...body, [key]: 1 })), 'unknown field'),
  (request) =>
    withBody(
      request,
      (body) =>
        fc
          .tuple(Object.keys(body).length ? fc.constantFrom(...Object.keys(body)) : fc.constant('code'), fc.constantFrom(...HOSTILE_VALUES))
          .map(([key, value]) => ({ ...body, [key]: value })),
      'hostile value',
    ),
  (request) =>
    withBody(
      request,
      (body) => {
        const nested = Object.entries(body).filter(([, value]) => value && typeof value === 'object');
        if (!nested.length) return fc.constant(body);
        return fc.tuple(fc.constantFrom(...nested), fc.constantFrom(...HOSTILE_VALUES)).map(([[key, value], hostile]) => ({
          ...body,
          [key]: Array.isArray(value) ? [...(value as unknown[]), hostile] : { ...(value as object), field: hostile },
        }));
      },
      'hostile nested value',
    ),
  // The body as bytes: malformed, deep, oversized, not UTF-8; and a wrong Content-Type.
  (request) => fc.constantFrom(...HOSTILE_BODIES).map((body) => ({ ...request, body, headers: { ...request.headers, 'Content-Type': 'application/json' }, mutation: 'hostile body' })),
  (request) =>
    fc
      .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', '')
      .map((type) => ({ ...request, body: request.body ?? '{}', headers: { ...request.headers, 'Content-Type': type }, mutation: `content type ${type}` })),
  // The path: a segment replaced by a malformed escape, a stranger's id, or something very long.
  (request) =>
    fc.tuple(fc.constantFrom(...HOSTILE_SEGMENTS), fc.nat()).map(([segment, at]) => {
      const parts = request.path.split('/');
      const index = 2 + (at % Math.max(parts.length - 2, 1));
      parts[Math.min(index, parts.length - 1)] = segment;
      return { ...request, path: parts.join('/'), mutation: `path segment ${segment.slice(0, 20)}` };
    }),
  (request) =>
    fc
      .constantFrom<[string, (path: string) => string]>(['trailing slash', (path) => `${path}/`], ['upper case', (path) => path.toUpperCase()], ['double slash', (path) => path.replace('/v1/', '/v1//')])
      .map(([label, change]) => ({ ...request, path: change(request.path), mutation: `path ${label}` })),
  // The query: unknown, repeated or lenient parameters, malformed escapes.
  (request) =>
    fc.constantFrom(...HOSTILE_QUERIES).map((query) => ({ ...request, query: request.query ? `${request.query}&${query}` : query, mutation: `query ${query}` })),
  // A method the path does not serve.
  (request) =>
    fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS').filter((method) => method !== request.method).map((method) => ({ ...request, method, mutation: `method ${method}` })),
  // The headers: a hostile Idempotency-Key, no key at all, a bad credential.
  (request) =>
    fc.constantFrom(...HOSTILE_KEYS).map((key) => ({ ...request, headers: { ...request.headers, 'Idempotency-Key': key }, mutation: `idempotency key of ${key.length}` })),
  (request) =>
    fc.constantFrom('', 'Bearer', 'Bearer service_live_nope', 'Basic abc', `Bearer ${'a'.repeat(5000)}`).map((authorization) => {
      const { Authorization: _, ...headers } = request.headers;
      return { ...request, headers: authorization ? { ...headers, Authorization: authorization } : headers, mutation: 'credential' };
    }),
];

/** A valid request with one hostile change. */
export const mutatedRequest = (valid: fc.Arbitrary<FuzzRequest>): fc.Arbitrary<FuzzRequest> =>
  fc.tuple(valid, fc.constantFrom(...mutations)).chain(([request, mutate]) => mutate(request));
