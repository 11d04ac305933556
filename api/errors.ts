/** The API document's error families: `type` decides the status. */
export type ErrorType =
  | 'authentication_error'
  | 'permission_error'
  | 'invalid_request_error'
  | 'not_found'
  | 'conflict'
  | 'rate_limit_error'
  | 'api_error';

/** An error the API answers with its documented status, type, code and param. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    readonly param?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const invalidParameter = (param: string | undefined, message: string): ApiError =>
  new ApiError(422, 'invalid_request_error', 'invalid_parameter', message, param);

export const invalidJson = (message: string): ApiError => new ApiError(400, 'invalid_request_error', 'invalid_json', message);

export const notFound = (code: string, message: string, param?: string): ApiError =>
  new ApiError(404, 'not_found', code, message, param);

export const conflict = (code: string, message: string, param?: string, headers?: Record<string, string>): ApiError =>
  new ApiError(409, 'conflict', code, message, param, headers);

export const authenticationError = (code: string, message: string): ApiError =>
  new ApiError(401, 'authentication_error', code, message);

export const permissionError = (code: string, message: string): ApiError =>
  new ApiError(403, 'permission_error', code, message);

export const internalError = (): ApiError =>
  new ApiError(500, 'api_error', 'internal_error', 'Something went wrong on our side. Retry with the same Idempotency-Key.');
