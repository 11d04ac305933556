import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { newId } from '../infra/ids';

/**
 * Largest request head (request line and headers) the server reads: twice Node's 16 KiB default,
 * so any header the API documents (an Idempotency-Key of 255 characters, a key, a content type)
 * reaches the app and its own checks even when a client sends it 20,000 characters long.
 */
export const MAX_HEADER_BYTES = 32 * 1024;

const answer = (socket: Duplex, status: number, reason: string, code: string, message: string): void => {
  const requestId = newId('request');
  const body = JSON.stringify({ error: { type: 'invalid_request_error', code, message, request_id: requestId } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
};

/**
 * The HTTP server around the app. What Node's parser refuses before the app sees a request still
 * gets the API document's error body with a Request-Id: a head over MAX_HEADER_BYTES is `431
 * headers_too_large`, a request that is not HTTP is `400 invalid_request`.
 */
export const httpServer = (app: Express): Server => {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, app);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      answer(socket, 431, 'Request Header Fields Too Large', 'headers_too_large', `The request's headers are over ${MAX_HEADER_BYTES} bytes.`);
    } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      answer(socket, 408, 'Request Timeout', 'request_timeout', 'The request did not arrive in time.');
    } else {
      answer(socket, 400, 'Bad Request', 'invalid_request', 'The request is not valid HTTP/1.1.');
    }
  });
  return server;
};
