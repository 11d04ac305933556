import type { RequestHandler } from 'express';
import { newId } from '../../infra/ids';

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
  }
}

/** Every response carries `Request-Id`; error bodies repeat it as `error.request_id`. */
export const requestId = (): RequestHandler => (req, res, next) => {
  req.requestId = newId('request');
  res.setHeader('Request-Id', req.requestId);
  next();
};
