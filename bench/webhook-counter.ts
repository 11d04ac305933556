import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A webhook receiver that answers 200 at once and counts the distinct objects announced per event type. */
export const startWebhookCounter = async () => {
  const announced = new Map<string, Set<string>>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString()) as { type: string; data: { object: { id: string } } };
      let ids = announced.get(event.type);
      if (!ids) announced.set(event.type, (ids = new Set()));
      ids.add(event.data.object.id);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    /** Distinct objects announced with this event type so far. */
    count: (type: string): number => announced.get(type)?.size ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
