import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import { conflict, notFound } from '../../api/errors';
import { errorHandler } from '../../api/middleware/error-handler';
import { requestId } from '../../api/middleware/request-id';
import { type RouteRegistry, route } from '../../api/route';
import { silentLogger } from '../../infra/logger';
import { checkedApp, failOnViolations, takeViolations } from '../support/response-check';

/** A throwaway app whose routes answer what the test tells them to, declared with a `{ id, count }` response. */
const throwawayApp = () => {
  const app = express();
  const routes: RouteRegistry = [];
  app.use(requestId());
  const router = express.Router();
  let answer: unknown = null;
  route(
    router,
    routes,
    { method: 'get', path: '/things/{id}', operationId: 'getThing', summary: 'A thing', description: 'A thing by its id.', tag: 'Meta', auth: 'none', status: 200, response: z.object({ id: z.string(), count: z.number().int(), tags: z.array(z.object({ name: z.string() })) }) },
    () => Promise.resolve({ body: answer }),
  );
  route(
    router,
    routes,
    { method: 'get', path: '/missing/{id}', operationId: 'getMissing', summary: 'Never there', description: 'Refuses every id.', tag: 'Meta', auth: 'none', status: 200, response: null },
    ({ params }) =>
      Promise.reject(params.id === 'clash' ? conflict('thing_clash', 'Undocumented here.') : notFound('thing_not_found', `No thing ${params.id}.`, 'id')),
  );
  route(
    router,
    routes,
    { method: 'post', path: '/things', operationId: 'createThing', summary: 'A new thing', description: 'Answers what the test set.', tag: 'Meta', auth: 'none', status: 201, response: z.object({ id: z.string(), count: z.number().int(), tags: z.array(z.object({ name: z.string() })) }) },
    () => Promise.resolve({ body: answer }),
  );
  router.get('/bare-error', (_req, res) => {
    res.status(400).json({ message: 'no' });
  });
  app.use(router);
  app.use(errorHandler(silentLogger()));
  return { app: checkedApp(app, routes), answer: (body: unknown) => (answer = body) };
};

describe('the response check every API test goes through', () => {
  afterEach(() => {
    // What the checker found was asserted by the test; none must reach the support module's own afterEach.
    takeViolations();
  });

  it('passes a response that parses with its route’s schema, and a documented error in the error shape', async () => {
    const { app, answer } = throwawayApp();
    answer({ id: 'a', count: 2, tags: [{ name: 'x' }] });
    expect((await request(app).get('/things/a')).status).toBe(200);
    expect((await request(app).get('/missing/a')).status).toBe(404);
    expect(takeViolations()).toEqual([]);
  });

  it.each([
    ['a mistyped field', { id: 'a', count: 'two', tags: [] }, 'count: Invalid input: expected number, received string'],
    ['a missing field', { id: 'a', tags: [] }, 'count: Invalid input: expected number, received undefined'],
    ['an unknown nested field', { id: 'a', count: 1, tags: [{ name: 'x', secret: true }] }, 'tags.0.secret: not in the schema'],
  ])('fails a response with %s, naming the route and the problem', async (_case, body, problem) => {
    const { app, answer } = throwawayApp();
    answer(body);
    await request(app).get('/things/a');
    const found = takeViolations();
    expect(found).toEqual([`GET /things/{id} answered 200: ${problem}`]);
  });

  it('checks a POST answer too, which the route writes without res.json', async () => {
    const { app, answer } = throwawayApp();
    answer({ id: 'a', count: 2, tags: [{ name: 'x' }] });
    const created = await request(app).post('/things');
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(created.body).toEqual({ id: 'a', count: 2, tags: [{ name: 'x' }] });
    expect(takeViolations()).toEqual([]);
    answer({ id: 'a', count: 'two', tags: [] });
    await request(app).post('/things');
    expect(takeViolations()).toEqual(['POST /things answered 201: count: Invalid input: expected number, received string']);
  });

  it('fails an error body that is not the error shape, and a status the route does not document', async () => {
    const { app } = throwawayApp();
    await request(app).get('/bare-error');
    await request(app).get('/missing/clash');
    expect(takeViolations()).toEqual([
      expect.stringMatching(/^GET \/bare-error \(no route\) answered 400: not the error shape: error: Invalid input/),
      'GET /missing/{id} answered 409: the route does not document 409 (400, 404, 413, 422, 429, 500)',
    ]);
  });

  it('fails the test: what is recorded is thrown by the afterEach the support module registers', async () => {
    const { app, answer } = throwawayApp();
    answer({ id: 1 });
    await request(app).get('/things/a');
    expect(failOnViolations).toThrow(/1 response\(s\) did not match their route's spec:\n {2}- GET \/things\/\{id\} answered 200: id: Invalid input/);
    expect(takeViolations()).toEqual([]);
  });
});
