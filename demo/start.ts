import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { commitGroup, enableGroupCommit } from '../infra/sqlite/group-commit';
import { openDatabase } from '../infra/sqlite/open-database';
import { createDemoAccountingApp } from './app';

export type DemoServerOptions = Readonly<{ port: number; dbPath: string; host?: string }>;

/** Starts the demonstration accounting server on its own SQLite file (state survives a restart). */
export const startDemoAccountingServer = async (options: DemoServerOptions) => {
  const db = openDatabase(options.dbPath);
  // Concurrent pushes share one commit per loop turn, as the service's own writes do.
  enableGroupCommit(db);
  const server = createServer(createDemoAccountingApp(db));
  await new Promise<void>((resolve, reject) => {
    // A server that cannot listen (a port in use) says so with an error event.
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    db.close();
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      commitGroup(db);
      db.close();
    },
  };
};
