import type { Request, RequestHandler } from 'express';
import type { SandboxWriteGate } from '../../commands/sandbox/sandbox-write-gate';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Holds a write request to a sandbox in the gate until its answer is sent or the client goes, so a
 * reset of that sandbox waits for it (and it for a reset under way). `organisationOf` names the
 * organisation a request writes to, null for one no reset can touch.
 */
export const sandboxWrites =
  (gate: SandboxWriteGate, organisationOf: (req: Request) => string | null): RequestHandler =>
  (req, res, next) => {
    const organisationId = READS.has(req.method) ? null : organisationOf(req);
    if (organisationId === null) {
      next();
      return;
    }
    gate.enter(organisationId).then((leave) => {
      res.once('close', leave);
      next();
    }, next);
  };
