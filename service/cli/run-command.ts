/** Runs an operator command to its exit code; anything it did not expect is one line on stderr and exit 1. */
export const runCommand = (name: string, main: () => Promise<number>): void => {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
};
