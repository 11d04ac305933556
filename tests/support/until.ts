/** Polls `check` until it holds (or returns a value), failing after `timeoutMs` with `what`. */
export const until = async <T>(what: string, check: () => Promise<T | false | null | undefined> | T | false | null | undefined, timeoutMs = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== false && value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
