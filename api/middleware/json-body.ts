import type { RequestHandler } from 'express';
import { ApiError } from '../errors';

export const MAX_BODY_CHARACTERS = 100_000;
// A character is at most 4 bytes in UTF-8: past this many bytes the body is surely too large.
const MAX_BODY_BYTES = MAX_BODY_CHARACTERS * 4;

const tooLarge = () =>
  new ApiError(413, 'invalid_request_error', 'payload_too_large', `The body is over ${MAX_BODY_CHARACTERS} characters.`);

/** Reads a JSON body, counting characters (not bytes) against the limit; leaves `req.body` undefined when empty. */
export const jsonBody = (): RequestHandler => (req, _res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) return next(tooLarge());
  const chunks: Buffer[] = [];
  let bytes = 0;
  let failed = false;
  req.on('data', (chunk: Buffer) => {
    if (failed) return;
    bytes += chunk.length;
    if (bytes > MAX_BODY_BYTES) {
      failed = true;
      next(tooLarge());
      return;
    }
    chunks.push(chunk);
  });
  req.on('error', (error) => {
    if (!failed) {
      failed = true;
      next(error);
    }
  });
  req.on('end', () => {
    if (failed) return;
    const text = Buffer.concat(chunks).toString('utf8');
    req.rawBody = text;
    if (text.trim() === '') return next();
    if ([...text].length > MAX_BODY_CHARACTERS) return next(tooLarge());
    try {
      req.body = JSON.parse(text) as unknown;
    } catch {
      return next(new ApiError(400, 'invalid_request_error', 'invalid_json', 'The body is not valid JSON.'));
    }
    next();
  });
};

declare module 'express-serve-static-core' {
  interface Request {
    rawBody?: string;
  }
}
