import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { removeRunDir } from '../support/global-teardown';
import { tempDir } from '../support/test-service';

describe("the test run's temporary directory", () => {
  it("holds every test's temporary directories, in jest's worker processes too", () => {
    expect(basename(tmpdir())).toMatch(/^billing-tests-/);
    expect(dirname(tempDir('probe'))).toBe(tmpdir());
  });

  it('is removed whole by the global teardown', () => {
    const runDir = join(tmpdir(), 'billing-tests-probe');
    mkdirSync(join(runDir, 'billing-x'), { recursive: true });
    writeFileSync(join(runDir, 'billing-x', 'billing.sqlite'), 'data');
    removeRunDir(runDir);
    expect(existsSync(runDir)).toBe(false);
  });

  it('leaves any other directory alone', () => {
    const other = join(tmpdir(), 'not-a-run');
    mkdirSync(other);
    expect(() => removeRunDir(other)).toThrow(/not a test run's temporary directory/);
    expect(existsSync(other)).toBe(true);
  });
});
