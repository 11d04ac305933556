import type { Logger } from '../logger';
import { DEFAULT_LEASE_MS, type Leases } from './port';

/** Work that runs only while its lease is held: started when it is taken, stopped when it is lost. */
export type LeasedWork = Readonly<{ start(): Promise<void> | void; stop(): Promise<void> | void }>;

export type LeasedRun = Readonly<{
  /** Whether this process holds the lease (and runs the work) now. */
  held(): boolean;
  /** Settles after the first attempt to take the lease (and the work's start, when it was taken). */
  ready: Promise<void>;
  /** Stops the work (if running) and gives the lease up. */
  stop(): Promise<void>;
}>;

/**
 * Runs `work` while this holder has the lease `name`: tries to take it every third of its time to
 * live, renewing it while held. Another process's holder takes over once a dead holder's lease
 * lapses. While the lease store cannot be reached, the work goes on only until the lease it last
 * renewed would have lapsed, so two holders never overlap.
 */
export const whileLeased = (
  leases: Leases,
  name: string,
  holder: string,
  work: LeasedWork,
  options: Readonly<{ logger: Logger; ttlMs?: number }>,
): LeasedRun => {
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_MS;
  const everyMs = Math.max(10, Math.floor(ttlMs / 3));
  const logger = options.logger.child({ lease: name });
  let held = false;
  let stopped = false;
  let renewedAt = 0;
  let busy: Promise<void> = Promise.resolve();

  const attempt = async () => {
    let holds: boolean;
    const asked = Date.now();
    try {
      holds = await leases.acquire(name, holder, ttlMs);
      if (holds) renewedAt = asked;
    } catch (error) {
      // Stop before the next attempt would come too late: by then another holder may have it.
      holds = held && Date.now() - renewedAt + everyMs < ttlMs;
      logger.warn({ err: error }, 'lease store unreachable');
    }
    if (stopped) return;
    if (holds && !held) {
      held = true;
      logger.info('lease taken: running');
      await work.start();
    } else if (!holds && held) {
      held = false;
      logger.warn('lease lost: stopped');
      await work.stop();
    }
  };
  const tick = () => {
    // One attempt at a time: a slow start or stop delays the next renewal, never doubles it.
    busy = busy.then(attempt).catch((error: unknown) => logger.error({ err: error }, 'leased work failed to start or stop'));
    return busy;
  };

  const ready = tick();
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  return {
    held: () => held,
    ready,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await busy;
      if (held) {
        held = false;
        await work.stop();
      }
      await leases.release(name, holder).catch(() => undefined);
    },
  };
};
