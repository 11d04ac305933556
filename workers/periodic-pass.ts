import type { Clock } from '../infra/clock/clock';

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * A pass over some items run every interval and once at start, never two at once (a call while one
 * runs shares it). An item that fails is reported and the pass goes on to the next; the pass keeps
 * when it last completed and the last failure, for the workers' status.
 */
export const periodicPass = <T>(
  wall: Clock,
  intervalSeconds: number,
  pass: Readonly<{
    items: () => Promise<readonly T[]>;
    each: (item: T) => Promise<void>;
    itemFailed: (error: unknown, item: T) => void;
    failed: (error: unknown) => void;
  }>,
) => {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let lastAt: Date | null = null;
  let lastError: string | null = null;

  const once = async () => {
    let failure: string | null = null;
    for (const item of await pass.items()) {
      try {
        await pass.each(item);
      } catch (error) {
        failure = message(error);
        pass.itemFailed(error, item);
      }
    }
    lastError = failure;
    lastAt = wall.now();
  };

  const run = (): Promise<void> => {
    running ??= once()
      .catch((error: unknown) => {
        lastError = message(error);
        pass.failed(error);
      })
      .finally(() => {
        running = null;
      });
    return running;
  };

  return {
    run,
    start: () => {
      timer = setInterval(() => void run(), intervalSeconds * 1000);
      timer.unref();
      void run();
    },
    stop: async () => {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
    last: () => ({ at: lastAt, error: lastError }),
  };
};
