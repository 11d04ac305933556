import type { RequestHandler } from 'express';
import { ApiError, invalidJson as badJson, invalidParameter } from '../errors';
import { nestingDepth } from './json-nesting';

export const MAX_BODY_CHARACTERS = 100_000;
/** Deepest nesting of arrays and objects a body may have; the deepest documented body has 4 levels. */
export const MAX_BODY_DEPTH = 20;
// A character is at most 4 bytes in UTF-8: past this many bytes the body is surely too large.
const MAX_BODY_BYTES = MAX_BODY_CHARACTERS * 4;

const tooLarge = () =>
  new ApiError(413, 'invalid_request_error', 'payload_too_large', `The body is over ${MAX_BODY_CHARACTERS} characters.`);
const invalidJson = (why: string) => badJson(`The body is not valid JSON: ${why}.`);

/** The client went away before its body had arrived: nobody is left to answer, and nothing is wrong with the service. */
export class ClientAborted extends Error {
  override name = 'ClientAborted';
}

/** `application/json`, optionally with `charset=utf-8`; anything else is refused, naming the header. */
const JSON_MEDIA_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a JSON body strictly: at most MAX_BODY_CHARACTERS characters (not bytes), valid UTF-8, sent
 * as `application/json`, nested at most MAX_BODY_DEPTH levels (so no recursive code downstream can
 * run out of stack). Leaves `req.body` undefined when empty.
 */
export const jsonBody = (): RequestHandler => (req, _res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) return next(tooLarge());
  const chunks: Buffer[] = [];
  let bytes = 0;
  let failed = false;
  const fail = (error: Error) => {
    if (failed) return;
    failed = true;
    next(error);
  };
  req.on('data', (chunk: Buffer) => {
    if (failed) return;
    bytes += chunk.length;
    if (bytes > MAX_BODY_BYTES) return fail(tooLarge());
    chunks.push(chunk);
  });
  req.on('aborted', () => fail(new ClientAborted('the client closed the connection before its body had arrived')));
  req.on('error', (error) => fail(req.readableAborted || req.destroyed ? new ClientAborted(error.message) : error));
  req.on('end', () => {
    if (failed) return;
    if (bytes === 0) return next();
    let text: string;
    try {
      text = strictUtf8.decode(Buffer.concat(chunks));
    } catch {
      return fail(invalidJson('it is not UTF-8'));
    }
    req.rawBody = text;
    if (text.trim() === '') return next();
    // Characters are at most UTF-16 units: only a text longer in units can be too long in characters (counting them copies the body).
    if (text.length > MAX_BODY_CHARACTERS && [...text].length > MAX_BODY_CHARACTERS) return fail(tooLarge());
    if (!JSON_MEDIA_TYPE.test(req.headers['content-type'] ?? '')) {
      return fail(invalidParameter('Content-Type', 'Send a body as Content-Type: application/json (UTF-8).'));
    }
    if (nestingDepth(text, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) return fail(invalidJson(`it is nested deeper than ${MAX_BODY_DEPTH} levels`));
    try {
      req.body = JSON.parse(text) as unknown;
    } catch {
      return fail(invalidJson('it does not parse'));
    }
    next();
  });
};

declare module 'express-serve-static-core' {
  interface Request {
    rawBody?: string;
  }
}
