import type { RequestHandler } from 'express';
import type { Scope } from '../../domain/api-key/scopes';
import { parseApiKey } from '../../infra/api-key-secret';
import { API_KEYS, type ApiKeyDoc } from '../../projections/read-models/api-keys';
import { ORGANISATIONS, type OrganisationDoc } from '../../projections/read-models/organisations';
import type { ApiDeps } from '../deps';
import { ApiError, authenticationError, permissionError } from '../errors';

export type Authenticated = Readonly<{ apiKey: ApiKeyDoc; organisation: OrganisationDoc }>;

declare module 'express-serve-static-core' {
  interface Request {
    auth?: Authenticated;
  }
}

const BEARER = /^Bearer (\S+)$/;
/**
 * A listing's order, newest first (secrets are random, so one key has the hash; were there two, the
 * newest would answer). Read unsorted: a sorted page costs the store three times the plain lookup.
 */
const newerFirst = (a: ApiKeyDoc, b: ApiKeyDoc): number =>
  a.created !== b.created ? (a.created > b.created ? -1 : 1) : a.id > b.id ? -1 : a.id < b.id ? 1 : 0;
const invalidKey = () =>
  authenticationError('invalid_api_key', 'Send a valid API key as Authorization: Bearer <API_KEY>.');

/**
 * Every answer outside the admin API carries the rate-limit headers. Until a key is identified
 * nothing is counted against anyone (the OpenAPI document needs no key and counts nothing either),
 * so these say so; `authenticate` replaces them once it has counted the request.
 */
export const uncountedRateLimitHeaders =
  (limit: number): RequestHandler =>
  (req, res, next) => {
    if (req.path !== '/admin' && !req.path.startsWith('/admin/')) {
      res.setHeader('RateLimit-Limit', String(limit));
      res.setHeader('RateLimit-Remaining', String(limit));
      res.setHeader('RateLimit-Reset', '0');
    }
    next();
  };

/**
 * Identifies the key, refuses revoked and expired ones, counts the request against the key's rate
 * limit (a refused request is refused before anything happens), then checks the key's mode. It
 * runs before the body is read, so a malformed or oversized body sent with a valid key is counted
 * like any other request, and one sent without a valid key is answered 401 unread.
 */
export const authenticate =
  (deps: ApiDeps): RequestHandler =>
  async (req, res, next) => {
    try {
      const presented = BEARER.exec(req.headers.authorization ?? '')?.[1];
      const parsed = presented ? parseApiKey(presented) : null;
      if (!parsed) throw invalidKey();
      const matches = await deps.readStore.findAll<ApiKeyDoc>(API_KEYS, [{ field: '_secret_hash', eq: parsed.secretHash }]);
      const apiKey = matches.reduce<ApiKeyDoc | undefined>((found, key) => (found && newerFirst(found, key) <= 0 ? found : key), undefined);
      if (!apiKey) throw invalidKey();
      if (apiKey.status === 'revoked') throw authenticationError('api_key_revoked', 'This API key has been revoked.');
      const now = deps.clocks.forOrganisation(apiKey._organisation).now();
      if (apiKey.expires_at !== null && new Date(apiKey.expires_at) <= now) {
        throw authenticationError('api_key_expired', 'This API key has expired.');
      }
      const limit = await deps.rateLimiter.hit(apiKey.id, deps.clocks.wall.now().getTime());
      res.setHeader('RateLimit-Limit', String(limit.limit));
      res.setHeader('RateLimit-Remaining', String(limit.remaining));
      res.setHeader('RateLimit-Reset', String(limit.resetSeconds));
      if (!limit.allowed) {
        throw new ApiError(429, 'rate_limit_error', 'rate_limited', 'Too many requests; wait Retry-After seconds.', undefined, {
          'Retry-After': String(limit.retryAfterSeconds ?? 1),
        });
      }
      if (parsed.livemode !== apiKey.livemode) {
        throw permissionError(
          'api_key_mode_mismatch',
          apiKey.livemode ? 'A live key works only against its live organisation.' : 'A test key works only in its sandbox.',
        );
      }
      const organisation = await deps.readStore.get<OrganisationDoc>(ORGANISATIONS, apiKey._organisation);
      if (!organisation || organisation.livemode !== apiKey.livemode) throw invalidKey();
      req.auth = { apiKey, organisation };
      next();
    } catch (error) {
      next(error);
    }
  };

export const requireScope =
  (scope: Scope | null): RequestHandler =>
  (req, _res, next) => {
    if (scope !== null && !req.auth?.apiKey.scopes.includes(scope)) {
      next(permissionError('insufficient_scope', `This API key lacks the ${scope} scope.`));
      return;
    }
    next();
  };
