import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Points every temporary directory of this bench run (its logs, the served services' data, which
 * reach gigabytes) into one of its own, removed when the process exits: after a failure or an
 * interrupt too. The served processes are forked after this and inherit it.
 */
export const useRunDir = (): void => {
  const runDir = mkdtempSync(join(tmpdir(), 'billing-bench-'));
  process.env.TMPDIR = runDir;
  process.on('exit', () => rmSync(runDir, { recursive: true, force: true }));
  // A signal's default ends the process without 'exit': exit as it would (128 + its number).
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
};
