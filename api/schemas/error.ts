import { z } from 'zod';

/** The one error body of both APIs, whatever the status. */
export const errorObject = z
  .object({
    error: z.object({
      type: z.enum([
        'authentication_error',
        'permission_error',
        'invalid_request_error',
        'not_found',
        'conflict',
        'rate_limit_error',
        'api_error',
      ]),
      code: z.string(),
      message: z.string(),
      param: z.string().optional(),
      request_id: z.string(),
    }),
  })
  .meta({ id: 'Error' });
