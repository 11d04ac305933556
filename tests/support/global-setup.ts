/** Says once, before any suite runs, which external adapters are exercised and which are skipped. */
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
};
