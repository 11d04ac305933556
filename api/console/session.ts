import { randomBytes } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import session from 'express-session';
import createMemoryStore from 'memorystore';
import type { Caller } from '../../commands/plumbing/metadata';

declare module 'express-session' {
  interface SessionData {
    /** The session's public id once signed in: what events record as their actor (the cookie's value never is). */
    operator: string;
    /** A sentence saying what the last command did, shown once on the next page. */
    notice: string;
  }
}

/** A console session ends after this long without a request. */
export const IDLE_MS = 8 * 60 * 60 * 1000;

/**
 * Sessions held in this process's memory (`memorystore` prunes the idle ones): a restart signs
 * operators out. The cookie is HttpOnly, SameSite=Strict, on /console only, renewed by every
 * answer, so it lapses after 8 hours idle; its value is a random id signed with a key drawn at start.
 */
export const consoleSessions = (): RequestHandler => {
  const MemoryStore = createMemoryStore(session);
  return session({
    name: 'console_session',
    secret: randomBytes(32).toString('hex'),
    store: new MemoryStore({ checkPeriod: 10 * 60 * 1000, ttl: IDLE_MS }),
    resave: false,
    saveUninitialized: false,
    rolling: true,
    unset: 'destroy',
    cookie: { httpOnly: true, sameSite: 'strict', path: '/console', maxAge: IDLE_MS, secure: 'auto' },
  });
};

export const signedIn = (req: Request): boolean => typeof req.session?.operator === 'string';

/** Who the console's commands are recorded as: the session, not the bare admin token. */
export const consoleCaller = (req: Request): Caller => ({ actor: { type: 'console', session: req.session.operator! }, requestId: req.requestId });
