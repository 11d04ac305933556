import type { RequestHandler } from 'express';
import { presents } from '../bearer-token';
import { authenticationError } from '../errors';

/** The operator API takes `Authorization: Bearer <ADMIN_TOKEN>`. */
export const adminAuth =
  (adminToken: string): RequestHandler =>
  (req, _res, next) => {
    if (!presents(req, adminToken)) {
      next(authenticationError('invalid_api_key', 'The admin API needs Authorization: Bearer <ADMIN_TOKEN>.'));
      return;
    }
    next();
  };
