import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const RUN_DIR = join(__dirname, '..', '..', 'dist', 'bench', 'run-dir.js');

/**
 * A bench process (the compiled `useRunDir`) that writes a file in its temporary directory, says
 * where, then ends as `ending` says. Answers the directory and the process's exit code.
 */
const benchProcess = (ending: 'return' | 'throw' | 'wait'): Promise<{ dir: string; code: number | null }> =>
  new Promise((resolve, reject) => {
    const script = `
      const { writeFileSync } = require('node:fs');
      const { tmpdir } = require('node:os');
      const { join } = require('node:path');
      require(${JSON.stringify(RUN_DIR)}).useRunDir('billing-bench-');
      writeFileSync(join(tmpdir(), 'billing.sqlite'), 'a log');
      process.stdout.write(tmpdir() + '\\n');
      if (${JSON.stringify(ending)} === 'throw') setImmediate(() => { throw new Error('the row failed'); });
      if (${JSON.stringify(ending)} === 'wait') setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    let dir = '';
    child.stdout.on('data', (chunk: Buffer) => {
      dir += chunk.toString();
      if (ending === 'wait' && dir.endsWith('\n')) {
        expect(existsSync(join(dir.trim(), 'billing.sqlite'))).toBe(true);
        child.kill('SIGINT');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ dir: dir.trim(), code }));
  });

describe("a bench run's temporary directory", () => {
  it.each([
    ['returns', 'return', 0],
    ['fails', 'throw', 1],
    ['is interrupted', 'wait', 130],
  ] as const)('is removed when the run %s', async (_, ending, exitCode) => {
    const { dir, code } = await benchProcess(ending);
    expect(dir).toMatch(/billing-bench-[^/]+$/);
    expect(code).toBe(exitCode);
    expect(existsSync(dir)).toBe(false);
  });
});
