import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The signature check docs/webhooks.md gives receivers: every webhook test checks the service's deliveries with the code integrators copy. */
export { verifySignature } from '../../examples/webhooks/verify-signature';

export type Received = Readonly<{ path: string; headers: IncomingHttpHeaders; raw: string; body: { id: string; type: string; [key: string]: unknown }; at: number }>;

export type Receiver = Readonly<{
  url: (path?: string) => string;
  received: Received[];
  /** Answers the next requests to `path` with these statuses (then 200). */
  answer: (path: string, statuses: number[]) => void;
  /** Holds the answers to the next `count` requests for `ms` (deliveries in flight). */
  hold: (count: number, ms: number) => void;
  close: () => Promise<void>;
}>;

/** A webhook receiver written from the API document alone: it keeps each request's raw body and headers. */
export const startReceiver = async (): Promise<Receiver> => {
  const received: Received[] = [];
  const planned = new Map<string, number[]>();
  let held = { count: 0, ms: 0 };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, raw, body: JSON.parse(raw), at: Date.now() });
      const status = planned.get(path)?.shift() ?? 200;
      const wait = held.count > 0 ? held.ms : 0;
      if (held.count > 0) held = { ...held, count: held.count - 1 };
      setTimeout(() => {
        res.writeHead(status, status >= 300 && status < 400 ? { Location: 'http://127.0.0.1:1/elsewhere' } : {});
        res.end();
      }, wait);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    answer: (path, statuses) => planned.set(path, [...statuses]),
    hold: (count, ms) => {
      held = { count, ms };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
