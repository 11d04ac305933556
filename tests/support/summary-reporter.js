const { existsSync } = require('node:fs');

/** Prints the plain closing line CI reads, and repeats which adapter and browser suites were skipped and why. */
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
    for (const line of skipped) process.stdout.write(`${line}\n`);
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(
      `tests: ${results.numPassedTests} passed, ${failed} failed, ${results.numPendingTests} skipped\n`,
    );
  }
}
module.exports = SummaryReporter;
