import express, { type Express, type Router } from 'express';
import request from 'supertest';
import { dispatchBySegments } from '../../api/segment-dispatch';

/** Routes of the shapes the API declares (literal prefixes, parameters, several methods on one path, OPTIONS refused), each answering which one ran. */
const routes = (): Router => {
  const router = express.Router();
  const answer = (name: string) => (req: express.Request, res: express.Response) => {
    res.json({ name, params: req.params, path: req.path, baseUrl: req.baseUrl });
  };
  router.get('/v1/organisation', answer('organisation'));
  router.get('/v1/plans', answer('plans'));
  router.get('/v1/plans/:id', answer('plan'));
  router.options('/v1/subscriptions', (_req, _res, next) => next(new Error('options refused')));
  router.post('/v1/subscriptions', answer('create'));
  router.get('/v1/subscriptions', answer('list'));
  router.get('/v1/subscriptions/:id', answer('get'));
  router.post('/v1/subscriptions/:id/end', answer('end'));
  router.get('/v1/usage_events', answer('usage'));
  return router;
};

const served = (dispatched: boolean): Express => {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const router = routes();
  app.use(dispatched ? dispatchBySegments(router) : router);
  app.use((req: express.Request, res: express.Response) => res.status(404).json({ unknown: `${req.method} ${req.path}` }));
  app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => res.status(500).json({ error: error.message }));
  return app;
};

const paths = [
  '/v1/organisation',
  '/V1/Organisation',
  '/v1/plans',
  '/v1/plans/',
  '/v1/PLANS/pl_1',
  '/v1/plans/pl%201',
  '/v1/plans/pl_1/x',
  '/v1/subscriptions',
  '/v1/Subscriptions/sub_1',
  '/v1/subscriptions/sub_1/end',
  '/v1/subscriptions/sub_1/END/',
  '/v1/subscriptions%2Fsub_1',
  '/v1//subscriptions',
  '/v1/ſubscriptions',
  '/v1/usage_events',
  '/v1/usage-events',
  '/v1',
  '/v1/',
  '/',
  '/v2/subscriptions',
  '/v1/subscriptions?limit=1',
];
const methods = ['get', 'post', 'options', 'head', 'delete'] as const;

describe('routes tried by their first two path segments (dispatchBySegments)', () => {
  it('answers every request as the whole router does', async () => {
    const whole = served(false);
    const dispatched = served(true);
    for (const path of paths) {
      for (const method of methods) {
        const [expected, actual] = await Promise.all([request(whole)[method](path), request(dispatched)[method](path)]);
        expect({ path, method, status: actual.status, headers: actual.headers, body: actual.body as unknown }).toEqual({
          path,
          method,
          status: expected.status,
          headers: { ...expected.headers, date: actual.headers.date },
          body: expected.body as unknown,
        });
      }
    }
  });

  it('keeps the router’s stack for what walks the app’s routes, and tries a request only against its own group', async () => {
    const router = routes();
    const tried: string[] = [];
    for (const layer of router.stack as unknown as { match: (path: string) => unknown; route: { path: string } }[]) {
      const match = layer.match.bind(layer);
      layer.match = (path: string) => {
        tried.push(layer.route.path);
        return match(path);
      };
    }
    const dispatch = dispatchBySegments(router);
    expect(dispatch.stack).toBe(router.stack);
    const app = express();
    app.use(dispatch);
    await request(app).post('/v1/subscriptions').expect(200);
    expect(tried).toEqual(['/v1/subscriptions', '/v1/subscriptions']);
  });

  it('leaves a router with a route not of that form whole', async () => {
    const router = routes();
    router.get('/:version/anything', (_req, res) => res.json({ name: 'anything' }));
    const app = express();
    app.use(dispatchBySegments(router));
    await request(app).get('/v1/anything').expect(200, { name: 'anything' });
    await request(app).post('/v1/subscriptions').expect(200);
  });
});
