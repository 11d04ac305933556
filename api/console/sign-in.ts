import type { Request, RequestHandler, Response, Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import { newId } from '../../infra/ids';
import { sameSecret } from '../admin/admin-auth';
import { renderPage } from './render';
import { signedIn } from './session';

const SIGN_IN_ATTEMPTS_A_MINUTE = 10;

/** How long the session behind a sign-in form lives: one a visitor makes by asking for the form is not kept for 8 hours. */
const SIGN_IN_FORM_MS = 15 * 60 * 1000;

const signInPage = (req: Request, res: Response, status: number, alert: string | null): void => {
  if (!signedIn(req)) req.session.cookie.maxAge = SIGN_IN_FORM_MS;
  renderPage(req, res, status, { view: 'sign-in', title: 'Sign in', data: { alert } });
};

const regenerate = (req: Request): Promise<void> => new Promise((resolve, reject) => req.session.regenerate((error) => (error ? reject(error as Error) : resolve())));

/**
 * Signing in exchanges the admin token, typed into a password field and posted (never in a URL),
 * for a session; the token is compared in constant time and never kept in the session or shown.
 * Attempts are limited per client address (express-rate-limit). Signing out ends the session here.
 */
export const signInRoutes = (router: Router, adminToken: string): void => {
  const form = (req: Request, res: Response) => (signedIn(req) ? res.redirect(303, '/console/organisations') : signInPage(req, res, 200, null));
  router.get('/', form);
  router.get('/sign-in', form);

  const limited = rateLimit({
    windowMs: 60_000,
    limit: SIGN_IN_ATTEMPTS_A_MINUTE,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (req, res) => signInPage(req, res, 429, 'Too many sign-in attempts from this address: wait a minute and try again.'),
  });
  router.post('/sign-in', limited, async (req: Request, res: Response) => {
    const token = (req.body as Record<string, unknown>).token;
    if (typeof token !== 'string' || !sameSecret(token, adminToken)) {
      signInPage(req, res, 401, 'Invalid admin token.');
      return;
    }
    // A new session id on signing in: one planted before it is worth nothing after.
    await regenerate(req);
    req.session.operator = newId('consoleSession');
    res.redirect(303, '/console/organisations');
  });

  router.post('/sign-out', (req: Request, res: Response, next) =>
    req.session.destroy((error) => {
      if (error) return next(error);
      res.clearCookie('console_session', { path: '/console' });
      res.redirect(303, '/console/sign-in');
    }),
  );
};

/** Every other page needs a session: a reader without one is sent to sign in. */
export const requireSignIn: RequestHandler = (req, res, next) => {
  if (signedIn(req)) next();
  else if (req.method === 'GET' || req.method === 'HEAD') res.redirect(303, '/console/sign-in');
  else signInPage(req, res, 401, 'Your session has ended: sign in again.');
};
