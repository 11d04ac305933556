import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import { tmpdir } from 'node:os';

/** Removes a test run's temporary directory (global-setup.ts): every test's databases and files. */
export const removeRunDir = (runDir: string): void => {
  if (!basename(runDir).startsWith('billing-tests-')) throw new Error(`not a test run's temporary directory: ${runDir}`);
  rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
};

export default (): void => removeRunDir(tmpdir());
