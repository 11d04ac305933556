import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';

const BEARER = /^Bearer (\S+)$/;

/** The token of the request's `Authorization: Bearer …` header; undefined without one. */
export const bearerToken = (req: Request): string | undefined => BEARER.exec(req.headers.authorization ?? '')?.[1];

/** Compares in constant time: how long it takes says nothing of how much of the secret was right. */
export const sameSecret = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Whether the request presents `secret` as its Bearer token, compared in constant time. */
export const presents = (req: Request, secret: string): boolean => {
  const token = bearerToken(req);
  return token !== undefined && sameSecret(token, secret);
};
