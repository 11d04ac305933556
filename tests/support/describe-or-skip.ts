import { spawnSync } from 'node:child_process';

/**
 * `describe`, or, on a machine without what the suite needs, `describe.skip` after saying so
 * loudly: a suite stays green without it only by telling the reader it did not run. CI has it all.
 */
export const describeIf =
  (available: boolean, what: string, why: string, install: string) =>
  (name: string, body: () => void): void => {
    if (available) {
      describe(name, body);
      return;
    }
    process.stderr.write(`\n${'!'.repeat(78)}\n!! ${what} SKIPPED (${name}): ${why}.\n!! Install it with: ${install}\n${'!'.repeat(78)}\n\n`);
    describe.skip(name, body);
  };

/** Whether a command answers `--version` on this machine's PATH. */
export const onPath = (command: string): boolean => spawnSync(command, ['--version']).status === 0;
