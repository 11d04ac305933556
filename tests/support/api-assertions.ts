import type { Response } from 'supertest';

/** Asserts the API document's error: status, type, code, param, and Request-Id equal to error.request_id. */
export const expectError = (
  response: Response,
  status: number,
  type: string,
  code: string,
  param?: string,
): void => {
  expect({ status: response.status, type: response.body?.error?.type, code: response.body?.error?.code }).toEqual({
    status,
    type,
    code,
  });
  if (param !== undefined) expect(response.body.error.param).toBe(param);
  expect(typeof response.body.error.message).toBe('string');
  expect(response.headers['request-id']).toMatch(/^req_/);
  expect(response.body.error.request_id).toBe(response.headers['request-id']);
};
