import type { Request, RequestHandler } from 'express';
import { csrfSync } from 'csrf-sync';
import helmet from 'helmet';

/**
 * The console's headers (helmet): a Content-Security-Policy allowing this origin alone (no inline
 * script or style, no frame), nosniff, and a referrer sent to this origin only. No upgrade to
 * https nor HSTS: the service is reached over plain http on loopback by default.
 */
export const consoleHeaders = (): RequestHandler =>
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: false,
  });

/** The origin the console is served from, as the browser names it. */
const ownOrigin = (req: Request): string => `${req.protocol}://${req.get('host') ?? ''}`;

export class ForeignOrigin extends Error {}

/** A write must come from a page of the console's own: its Origin header is this origin (browsers send it on every POST). */
export const sameOrigin: RequestHandler = (req, _res, next) => {
  if (req.method !== 'POST' || req.get('origin') === ownOrigin(req)) {
    next();
    return;
  }
  next(new ForeignOrigin(`A write from ${req.get('origin') ?? 'no origin'} is refused: only the console's own pages may write.`));
};

/** The synchroniser token pattern (csrf-sync): one token per session, kept in it, sent back by every form as `_csrf`. */
export const csrf = csrfSync({ getTokenFromRequest: (req) => (req.body as Record<string, unknown> | undefined)?._csrf as string | undefined });
