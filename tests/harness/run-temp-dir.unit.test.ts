import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { tempDir } from '../support/test-service';

// Its removal when the run ends, fails or is interrupted: tests/bench/run-dir.unit.test.ts.
describe("the test run's temporary directory", () => {
  it("holds every test's temporary directories, in jest's worker processes too", () => {
    expect(basename(tmpdir())).toMatch(/^billing-tests-/);
    expect(dirname(tempDir('probe'))).toBe(tmpdir());
  });
});
