import { hash } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { ApiDeps } from '../deps';
import { resetScope } from '../../domain/organisation/rules';
import { idempotencyConflict } from '../../domain/shared/idempotency';
import { SANDBOX_GENERATIONS, type SandboxGenerationDoc } from '../../projections/read-models/organisations';
import type { Authenticated } from './authenticate';
import { ApiError, conflict } from '../errors';
import { type Settlement, settle } from '../middleware/settlement';

const KEY = /^[\x21-\x7E]{1,255}$/;

const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    // The default sort orders by UTF-16 code units, as `<` does.
    const object = value as Record<string, unknown>;
    return `{${Object.keys(object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(object[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

declare module 'express-serve-static-core' {
  interface Request {
    /** The fingerprint of a request that holds its Idempotency-Key's lock, for work that outlives the key. */
    idempotencyFingerprint?: string;
  }
}

/** Same method, path and JSON body (key order aside) is the same request. */
export const requestFingerprint = (method: string, path: string, body: unknown): string =>
  hash('sha256', `${method} ${path}\n${canonicalJson(body ?? null)}`, 'hex');

/** Where an API key's idempotency records live in one generation of its sandbox (a live key's: generation 0, its id alone). */
export const idempotencyScope = (apiKeyId: string, resetGeneration: number): string => [apiKeyId, ...resetScope(resetGeneration)].join('.');

/**
 * A sandbox's records are scoped by its reset generation, read from the log's read model: once a
 * reset is in the read models, no request reaches the records made before it, whether or not the
 * reset went on to forget them (a crash in between leaves records nobody reads, purged on expiry).
 */
const scopeOf = async (deps: ApiDeps, { apiKey, organisation }: Authenticated): Promise<string> => {
  if (organisation.livemode) return idempotencyScope(apiKey.id, 0);
  const generation = await deps.readStore.get<SandboxGenerationDoc>(SANDBOX_GENERATIONS, organisation.id);
  return idempotencyScope(apiKey.id, generation?.generation ?? 0);
};

/**
 * `Idempotency-Key` per API key (and sandbox generation): a repeat of a success is answered from the stored response, a
 * different request with the key is a conflict, a repeat while the first runs is `request_in_progress`,
 * and a failure releases the key. The lock is renewed while the request runs, so it lapses soon after
 * its process dies (and the embedded profile releases its predecessor's locks at start).
 */
export const idempotency =
  (deps: ApiDeps, mode: 'required' | 'optional'): RequestHandler =>
  async (req, res, next) => {
    try {
      const key = req.header('Idempotency-Key');
      if (key === undefined) {
        if (mode === 'required') {
          throw new ApiError(422, 'invalid_request_error', 'idempotency_key_required', 'This request needs an Idempotency-Key header.');
        }
        return next();
      }
      if (!KEY.test(key)) {
        throw new ApiError(
          422,
          'invalid_request_error',
          'idempotency_key_invalid',
          'An Idempotency-Key is 1 to 255 printable ASCII characters without spaces.',
        );
      }
      const scope = await scopeOf(deps, req.auth!);
      const now = () => deps.clocks.wall.now().getTime();
      const fingerprint = requestFingerprint(req.method, req.path, req.body);
      const begun = await deps.idempotency.begin(scope, key, fingerprint, now());
      switch (begun.kind) {
        case 'replay':
          res.setHeader('Idempotent-Replayed', 'true');
          for (const [name, value] of Object.entries(begun.response.headers ?? {})) res.setHeader(name, value);
          res.status(begun.response.status).json(begun.response.body);
          return;
        case 'conflict':
          throw idempotencyConflict();
        case 'in_progress':
          throw conflict('request_in_progress', 'A request with this Idempotency-Key is still running; retry shortly.', undefined, {
            'Retry-After': '2',
          });
        case 'started': {
          // The lock's lease is renewed while the request runs: it outlives a slow request, not a dead process.
          const renewal = setInterval(() => {
            deps.idempotency.renew(scope, key, begun.token, now()).catch((error: unknown) => deps.logger.warn({ err: error }, 'idempotency lock renewal failed'));
          }, Math.max(100, Math.floor(deps.idempotency.leaseMs / 3)));
          renewal.unref();
          res.once('close', () => clearInterval(renewal));
          const settlement: Settlement = {
            succeed: (status, body) => {
              clearInterval(renewal);
              return deps.idempotency.complete(scope, key, begun.token, { status, body }, now());
            },
            fail: () => {
              clearInterval(renewal);
              return deps.idempotency.release(scope, key, begun.token);
            },
          };
          settle(res, settlement);
          req.idempotencyFingerprint = fingerprint;
          return next();
        }
        default: {
          const exhaustive: never = begun;
          return exhaustive;
        }
      }
    } catch (error) {
      next(error);
    }
  };
