import type { OperationsDeps, StoreCheck } from './operations-deps';
import { STORE_CHECKS } from './operations-deps';

/** How long a store has to answer the probe before its check fails. */
export const CHECK_TIMEOUT_MS = 2_000;

export type CheckName = StoreCheck | 'projections';
export type CheckResult = Readonly<{ status: 'ok' } | { status: 'failing'; error: string }>;
export type Readiness = Readonly<{ ready: boolean; checks: Readonly<Record<CheckName, CheckResult>>; failing: readonly CheckName[] }>;

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The check's answer, or its failure: a throw, or no answer within `CHECK_TIMEOUT_MS`. */
const answered = async (check: () => Promise<unknown>): Promise<CheckResult> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return { status: 'ok' };
  } catch (error) {
    return { status: 'failing', error: message(error) };
  } finally {
    clearTimeout(timer);
  }
};

/** Every projection within `maxLagEvents` of the log's head, or the ones further behind named. */
const projectionsCheck = (deps: OperationsDeps) => async (): Promise<void> => {
  const behind = (await deps.lagEvents(deps.maxLagEvents + 1)).filter((lag) => lag.events > deps.maxLagEvents);
  if (behind.length > 0) {
    throw new Error(`${behind.map((lag) => `${lag.name} is ${lag.events} events behind`).join(', ')} (READY_MAX_LAG_EVENTS=${deps.maxLagEvents})`);
  }
};

/** Asks every store and the projections at once; ready when every check passes. */
export const readiness = async (deps: OperationsDeps): Promise<Readiness> => {
  const names: CheckName[] = [...STORE_CHECKS, 'projections'];
  const results = await Promise.all(names.map((name) => answered(name === 'projections' ? projectionsCheck(deps) : deps.stores[name])));
  const checks = Object.fromEntries(names.map((name, i) => [name, results[i]!])) as Record<CheckName, CheckResult>;
  const failing = names.filter((name) => checks[name].status === 'failing');
  return { ready: failing.length === 0, checks, failing };
};
