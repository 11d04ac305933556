const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');

/** Prints the plain closing line CI reads, and repeats which adapter, browser and tool-dependent suites were skipped and why. */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = [
      ['EVENTSTORE_URL', 'EventStoreDB'],
      ['MONGO_URL', 'MongoDB'],
      ['REDIS_URL', 'Redis'],
    ]
      .filter(([name]) => !process.env[name])
      .map(([name, what]) => `${what} adapter contract suites skipped: ${name} is not set`);
    if (!existsSync('/usr/bin/chromium')) skipped.push('Browser checks of /docs skipped: /usr/bin/chromium is not installed (apt-get install chromium)');
    if (spawnSync('python3', ['--version']).status !== 0) skipped.push('Python webhook signature check skipped: python3 is not on PATH');
    if (spawnSync('curl', ['--version']).status !== 0) skipped.push('README walk-through skipped: curl is not on PATH');
    for (const line of skipped) process.stdout.write(`${line}\n`);
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(
      `tests: ${results.numPassedTests} passed, ${failed} failed, ${results.numPendingTests} skipped\n`,
    );
  }
}
module.exports = SummaryReporter;
