import type { RequestHandler } from 'express';
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

/** The host (and port) an Origin header names; null for none or `null`. */
const hostOf = (origin: string | undefined): string | null => {
  if (!origin) return null;
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
};

export class ForeignOrigin extends Error {}

/**
 * A write must come from a page of the console's own: its Origin header (browsers send it on every
 * POST) names the host the request was sent to. The host, not the scheme: behind a proxy ending TLS
 * the service sees http while the browser says https.
 */
export const sameOrigin: RequestHandler = (req, _res, next) => {
  const origin = req.get('origin');
  if (req.method !== 'POST' || (hostOf(origin) !== null && hostOf(origin) === req.get('host'))) {
    next();
    return;
  }
  next(new ForeignOrigin(`A write from ${origin ?? 'no origin'} is refused: only the console's own pages may write.`));
};

/** The synchroniser token pattern (csrf-sync): one token per session, kept in it, sent back by every form as `_csrf`. */
export const csrf = csrfSync({ getTokenFromRequest: (req) => (req.body as Record<string, unknown> | undefined)?._csrf as string | undefined });
