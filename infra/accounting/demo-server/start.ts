import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { commitGroup, enableGroupCommit } from '../../sqlite/group-commit';
import { openDatabase } from '../../sqlite/open-database';
import { createDemoAccountingApp } from './app';

export type DemoServerOptions = Readonly<{ port: number; dbPath: string; host?: string }>;

/** Starts the demonstration accounting server on its own SQLite file (state survives a restart). */
export const startDemoAccountingServer = async (options: DemoServerOptions) => {
  const db = openDatabase(options.dbPath);
  // Concurrent pushes share one commit per loop turn, as the service's own writes do.
  enableGroupCommit(db);
  const app = createDemoAccountingApp(db);
  const server: Server = await new Promise<Server>((resolve, reject) => {
    // Express 5 calls back with the error when the server cannot listen (a port in use).
    const listening = app.listen(options.port, options.host ?? '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(listening)));
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
