import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { authenticationError } from '../errors';

const BEARER = /^Bearer (\S+)$/;

/** Compares in constant time: how long it takes says nothing of how much of the secret was right. */
export const sameSecret = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** The operator API takes `Authorization: Bearer <ADMIN_TOKEN>`. */
export const adminAuth =
  (adminToken: string): RequestHandler =>
  (req, _res, next) => {
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !sameSecret(token, adminToken)) {
      next(authenticationError('invalid_api_key', 'The admin API needs Authorization: Bearer <ADMIN_TOKEN>.'));
      return;
    }
    next();
  };
