import express, { type Express } from 'express';
import { sandboxWriteGateOf } from '../commands/sandbox/sandbox-write-gate';
import { adminAuth } from './admin/admin-auth';
import { ADMIN_API_INTRODUCTION } from './admin/introduction';
import { accountingRoutes } from './admin/accounting';
import { apiKeyRoutes } from './admin/api-keys';
import { auditRoutes } from './admin/audit';
import { adminCustomerRoutes } from './admin/customers';
import { catalogueRoutes as adminCatalogueRoutes } from './admin/catalogue';
import { invoiceSyncRoutes } from './admin/invoice-sync';
import { organisationObjectRoutes } from './admin/organisation-objects';
import { organisationRoutes } from './admin/organisations';
import { timeRoutes } from './admin/time';
import { webhookEndpointRoutes } from './admin/webhook-endpoints';
import { workersRoutes } from './admin/workers';
import { consoleRouter } from './console/console';
import { projectionRoutes } from './admin/projections';
import { reportRoutes } from './admin/reports';
import type { ApiDeps } from './deps';
import { errorHandler, unknownEndpoint } from './middleware/error-handler';
import { jsonBody } from './middleware/json-body';
import { requestId } from './middleware/request-id';
import { sandboxWrites } from './middleware/sandbox-writes';
import { openApiDocument } from './openapi';
import { authenticate, uncountedRateLimitHeaders } from './public/authenticate';
import { catalogueRoutes } from './public/catalogue';
import { customerRoutes } from './public/customers';
import { PUBLIC_API_INTRODUCTION } from './public/introduction';
import { organisationRoute } from './public/organisation';
import { creditNoteRoutes } from './public/credit-notes';
import { lifecycleRoutes } from './public/lifecycle';
import { subscriptionRoutes } from './public/subscriptions';
import { usageRoutes } from './public/usage';
import { referenceRoutes } from './reference';
import { type RouteRegistry, route } from './route';
import { dispatchBySegments } from './segment-dispatch';

export type App = Readonly<{ app: Express; routes: RouteRegistry }>;

const ADMIN_PATH = /^\/admin(?:\/|$)/i;
/** The organisation an operator's request writes to: any under `/admin/v1/organisations/{org}/`, but its reset. */
const ADMIN_WRITE_TARGET = /^\/admin\/v1\/organisations\/([^/]+)\/(?!reset\/?$)/i;

const describeDocument = (router: express.Router, routes: RouteRegistry, prefix: '/v1' | '/admin/v1', title: string, introduction: string) => {
  let document: unknown = null;
  route(
    router,
    routes,
    {
      method: 'get',
      path: `${prefix}/openapi.json`,
      operationId: prefix === '/v1' ? 'getOpenApiDocument' : 'getAdminOpenApiDocument',
      summary: 'This OpenAPI document',
      description: `The OpenAPI 3.1 description of every operation under \`${prefix}\`, generated from the schemas the service validates requests with; no key is needed. Generate clients and types from it.`,
      tag: 'Meta',
      auth: 'none',
      status: 200,
      response: null,
    },
    () => {
      document ??= openApiDocument(
        routes.filter((r) => r.path.startsWith(`${prefix}/`)),
        { title, description: introduction },
      );
      return Promise.resolve({ body: document });
    },
  );
};

/** The whole HTTP surface: public `/v1` and operator `/admin/v1`, one error shape for both; the console at `/console`. */
export const createApp = (deps: ApiDeps): App => {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  const routes: RouteRegistry = [];

  // Nothing reads a body before its caller is known: the key (or the admin token) is checked and
  // counted first, so a caller without one cannot make the service parse anything.
  app.use(requestId());
  // The console answers pages, not the API's JSON: its own headers, session and errors.
  app.use('/console', consoleRouter(deps));
  app.use(uncountedRateLimitHeaders(deps.rateLimiter.limit));

  app.use('/docs', referenceRoutes());

  const open = express.Router();
  describeDocument(open, routes, '/v1', 'Subscription Billing Service API', PUBLIC_API_INTRODUCTION);
  describeDocument(open, routes, '/admin/v1', 'Subscription Billing Service admin API', ADMIN_API_INTRODUCTION);
  app.use(open);

  const admin = express.Router();
  organisationRoutes(admin, routes, deps);
  timeRoutes(admin, routes, deps);
  apiKeyRoutes(admin, routes, deps);
  adminCatalogueRoutes(admin, routes, deps);
  accountingRoutes(admin, routes, deps);
  adminCustomerRoutes(admin, routes, deps);
  invoiceSyncRoutes(admin, routes, deps);
  webhookEndpointRoutes(admin, routes, deps);
  workersRoutes(admin, routes, deps);
  auditRoutes(admin, routes, deps);
  projectionRoutes(admin, routes, deps);
  reportRoutes(admin, routes, deps);
  organisationObjectRoutes(admin, routes, deps);
  app.use('/admin', adminAuth(deps.adminToken));
  // Operators' writes to an organisation, but its reset (which takes the gate whole).
  app.use(sandboxWrites(sandboxWriteGateOf(deps.store), (req) => ADMIN_WRITE_TARGET.exec(req.path)?.[1] ?? null));
  app.use('/admin', jsonBody());
  // Tried only for /admin paths (matched as the router matches a prefix: any case): a /v1 request skips its hundred-odd
  // layers. Its `stack` stays visible, as a mounted router's is, to what walks the app's routes.
  app.use(Object.assign((req: express.Request, res: express.Response, next: express.NextFunction) => (ADMIN_PATH.test(req.path) ? admin(req, res, next) : next()), { stack: admin.stack }));

  const v1 = express.Router();
  organisationRoute(v1, routes, deps);
  catalogueRoutes(v1, routes, deps);
  customerRoutes(v1, routes, deps);
  subscriptionRoutes(v1, routes, deps);
  lifecycleRoutes(v1, routes, deps);
  creditNoteRoutes(v1, routes, deps);
  usageRoutes(v1, routes, deps);
  // Each /v1 route reads its body once the key's scope is checked (`publicRoute`).
  app.use('/v1', authenticate(deps));
  app.use('/v1', sandboxWrites(sandboxWriteGateOf(deps.store), (req) => (req.auth!.organisation.livemode ? null : req.auth!.organisation.id)));
  app.use(dispatchBySegments(v1));

  app.use(unknownEndpoint());
  app.use(errorHandler(deps.logger));
  return { app, routes };
};
