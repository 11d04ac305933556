import { useRunDir } from '../../bench/run-dir';

/**
 * Says once, before any suite runs, which external adapters are exercised and which are skipped;
 * and points every test's temporary directories (and the service processes they start) into one
 * directory of this run's, removed when jest exits.
 */
export default (): void => {
  const targets: [string, string][] = [
    ['EVENTSTORE_URL', 'EventStoreDB event store'],
    ['MONGO_URL', 'MongoDB read store'],
    ['REDIS_URL', 'Redis rate limiter, idempotency store and BullMQ job queue'],
  ];
  const lines = targets.map(([name, what]) =>
    process.env[name]
      ? `  ran:     ${what} contract suites (${name} is set)`
      : `  SKIPPED: ${what} contract suites: ${name} is not set`,
  );
  process.stdout.write(`\nExternal adapters:\n${lines.join('\n')}\n\n`);
  // Jest's workers are started after this, with this process's environment; os.tmpdir() reads TMPDIR.
  useRunDir('billing-tests-');
};
