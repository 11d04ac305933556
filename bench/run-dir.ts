import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Points every temporary directory of this run (a bench run's logs and served services' data, which
 * reach gigabytes; a test run's databases) into one of its own, `<prefix>…`, removed when the
 * process exits: after a failure or an interrupt too. Processes started after this inherit it.
 */
export const useRunDir = (prefix: string): void => {
  const runDir = mkdtempSync(join(tmpdir(), prefix));
  process.env.TMPDIR = runDir;
  process.on('exit', () => rmSync(runDir, { recursive: true, force: true, maxRetries: 3 }));
  // A signal's default ends the process without 'exit': exit as it would (128 + its number).
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
};
