import express, { type Router } from 'express';
import { sandboxWriteGateOf } from '../../commands/sandbox/sandbox-write-gate';
import type { ApiDeps } from '../deps';
import { notFound } from '../errors';
import { sandboxWrites } from '../middleware/sandbox-writes';
import { consoleAssets } from './assets';
import { consoleErrors } from './page';
import { cataloguePages } from './pages/catalogue';
import { listPages } from './pages/lists';
import { creditNotePages } from './pages/credit-note';
import { customerPages } from './pages/customer';
import { invoicePages } from './pages/invoice';
import { keyPages } from './pages/api-keys';
import { organisationPages } from './pages/organisation';
import { operationsPages } from './pages/operations';
import { revenuePages } from './pages/revenue';
import { subscriptionPages } from './pages/subscription';
import { webhookPages } from './pages/webhooks';
import { consoleHeaders, csrf, sameOrigin } from './security';
import { consoleSessions } from './session';
import { requireSignIn, signInRoutes } from './sign-in';

/** The organisation a console write goes to (a sandbox's writes wait for its reset), but the reset itself. */
const WRITE_TARGET = /^\/organisations\/([^/]+)\/(?!reset\/?$)/;

/**
 * The operators' and auditors' console, mounted at `/console`: server-rendered pages reading the
 * read models the APIs read, forms sending commands through the handlers the APIs use, recorded
 * with the console session as their actor.
 */
export const consoleRouter = (deps: ApiDeps): Router => {
  const router = express.Router({ strict: false });
  router.use(consoleHeaders());
  router.use('/assets', consoleAssets());
  router.use(consoleSessions());
  router.use(express.urlencoded({ extended: false, limit: '100kb', parameterLimit: 200 }));
  router.use(sameOrigin);
  router.use(csrf.csrfSynchronisedProtection);
  signInRoutes(router, deps.adminToken);
  router.use(requireSignIn);
  router.use(sandboxWrites(sandboxWriteGateOf(deps.store), (req) => WRITE_TARGET.exec(req.path)?.[1] ?? null));
  organisationPages(router, deps);
  listPages(router, deps);
  subscriptionPages(router, deps);
  invoicePages(router, deps);
  creditNotePages(router, deps);
  customerPages(router, deps);
  cataloguePages(router, deps);
  webhookPages(router, deps);
  keyPages(router, deps);
  revenuePages(router, deps);
  operationsPages(router, deps);
  router.use((req, _res, next) => next(notFound('page_not_found', `There is no console page at ${req.originalUrl}.`)));
  router.use(consoleErrors(deps.logger));
  return router;
};
