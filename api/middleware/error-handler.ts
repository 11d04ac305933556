import type { ErrorRequestHandler, RequestHandler } from 'express';
import { DomainError } from '../../domain/shared/domain-error';
import { AccountingRefused, AccountingUnavailable } from '../../infra/accounting/port';
import type { Logger } from '../../infra/logger';
import { UnknownCursor } from '../../infra/read-store/unknown-cursor';
import { ApiError, type ErrorType, internalError, invalidJson, invalidParameter, notFound } from '../errors';
import { ClientAborted } from './json-body';
import { settlementOf } from './settlement';

const DOMAIN_ERRORS: Record<DomainError['kind'], { status: number; type: ErrorType }> = {
  invalid: { status: 422, type: 'invalid_request_error' },
  not_found: { status: 404, type: 'not_found' },
  conflict: { status: 409, type: 'conflict' },
  permission: { status: 403, type: 'permission_error' },
  accounting: { status: 502, type: 'api_error' },
};

/** The API's error for what a handler threw; null for a failure of ours (a 500). */
export const toApiError = (error: unknown): ApiError | null => {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) {
    const { status, type } = DOMAIN_ERRORS[error.kind];
    return new ApiError(status, type, error.code, error.message, error.param);
  }
  if (error instanceof UnknownCursor) return invalidParameter('starting_after', error.message);
  if (error instanceof ClientAborted) return invalidJson('The body ended before it was complete.');
  // The router refuses a path parameter that is not valid percent-encoding (or not UTF-8): it names nothing.
  if (error instanceof URIError) return notFound('unknown_endpoint', 'The path is not valid percent-encoded UTF-8.');
  if (error instanceof AccountingRefused || error instanceof AccountingUnavailable) {
    return new ApiError(502, 'api_error', 'accounting_error', `The accounting system said: ${error.message}`);
  }
  return null;
};

export const unknownEndpoint = (): RequestHandler => (req, _res, next) => {
  next(notFound('unknown_endpoint', `${req.method} ${req.path} is not part of the API.`));
};

/** Turns every error into the API document's body; a 500 never shows a stack or an internal message. */
export const errorHandler =
  (logger: Logger): ErrorRequestHandler =>
  async (error: unknown, req, res, _next) => {
    // Only successes are stored: a failure releases the Idempotency-Key for a corrected retry.
    await settlementOf(res)
      ?.fail()
      .catch((releaseError: unknown) => logger.error({ err: releaseError }, 'could not release an idempotency key'));
    if (error instanceof ClientAborted) {
      logger.info({ requestId: req.requestId, method: req.method, path: req.path }, 'client aborted its request');
    }
    let apiError = toApiError(error);
    if (!apiError) {
      logger.error({ err: error, requestId: req.requestId, method: req.method, path: req.path }, 'unhandled error');
      apiError = internalError();
    }
    if (res.headersSent || res.destroyed) return;
    for (const [name, value] of Object.entries(apiError.headers)) res.setHeader(name, value);
    res.status(apiError.status).json({
      error: {
        type: apiError.type,
        code: apiError.code,
        message: apiError.message,
        ...(apiError.param !== undefined ? { param: apiError.param } : {}),
        request_id: req.requestId,
      },
    });
  };
