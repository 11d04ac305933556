import { join } from 'node:path';
import { startDemoAccountingServer } from './start';

/** `npm run accounting`: the demonstration accounting system on its own (then set ACCOUNTING_URL). */
const port = Number(process.env.ACCOUNTING_PORT ?? process.env.PORT ?? 4100);
const dataDir = process.env.DATA_DIR ?? './data';

startDemoAccountingServer({ port, dbPath: join(dataDir, 'demo-accounting.sqlite') })
  .then(({ url }) => process.stdout.write(`demonstration accounting system listening on ${url}\n`))
  .catch((error: unknown) => {
    process.stderr.write(`could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
