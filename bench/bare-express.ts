import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

/** The baseline: a bare Express app that parses a JSON body and answers JSON, nothing else. */
export const startBareExpress = async (): Promise<{ url: string; close(): Promise<void> }> => {
  const app = express();
  app.use(express.json());
  let n = 0;
  app.post('/echo', (req, res) => {
    n++;
    res.status(201).json({ id: `obj_${n}`, object: 'echo', received: req.body as unknown });
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
