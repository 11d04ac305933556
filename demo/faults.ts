import type { RequestHandler } from 'express';

export type Fault = Readonly<{
  /** `refuse`: answer a 4xx; `5xx`: answer a 5xx (after doing the work when `afterCommit`); `slow`: wait first. */
  kind: 'refuse' | '5xx' | 'slow';
  method?: string;
  pathPrefix: string;
  count: number;
  status?: number;
  code?: string;
  message?: string;
  delayMs?: number;
  afterCommit?: boolean;
}>;

/** Faults injected through the control routes, each used up by the requests it matches. */
export const faultInjector = () => {
  const faults: { fault: Fault; left: number }[] = [];
  const take = (method: string, path: string): Fault | null => {
    const entry = faults.find(
      ({ fault, left }) => left > 0 && path.startsWith(fault.pathPrefix) && (!fault.method || fault.method.toUpperCase() === method),
    );
    if (!entry) return null;
    entry.left--;
    return entry.fault;
  };
  const middleware: RequestHandler = (req, res, next) => {
    if (req.path.startsWith('/control')) return next();
    const fault = take(req.method, req.path);
    if (!fault) return next();
    switch (fault.kind) {
      case 'refuse':
        res.status(fault.status ?? 400).json({ error: { code: fault.code ?? 'validation_failed', message: fault.message ?? 'Refused by an injected fault.' } });
        return;
      case '5xx':
        if (fault.afterCommit) {
          // Do the work, then lose the answer: the caller's retry must not make a second document.
          res.locals.failAfterCommit = fault.status ?? 500;
          return next();
        }
        res.status(fault.status ?? 503).json({ error: { code: 'unavailable', message: 'Injected server error.' } });
        return;
      case 'slow':
        setTimeout(next, fault.delayMs ?? 1000);
        return;
      default: {
        const exhaustive: never = fault.kind;
        return exhaustive;
      }
    }
  };
  return {
    middleware,
    /** Whether a fault is waiting for a request to match (none: every request is answered as is). */
    pending: () => faults.some(({ left }) => left > 0),
    add: (fault: Fault) => faults.push({ fault, left: fault.count }),
    clear: () => faults.splice(0, faults.length),
  };
};
