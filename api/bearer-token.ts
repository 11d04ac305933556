import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';

const BEARER = /^Bearer (\S+)$/;

/** The token of the request's `Authorization: Bearer …` header; undefined without one. */
export const bearerToken = (req: Request): string | undefined => BEARER.exec(req.headers.authorization ?? '')?.[1];

/** Whether the request presents `secret` as its Bearer token, compared in constant time. */
export const presents = (req: Request, secret: string): boolean => {
  const token = bearerToken(req);
  if (token === undefined) return false;
  const sent = Buffer.from(token);
  const expected = Buffer.from(secret);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
};
