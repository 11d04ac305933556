import { spawnSync } from 'node:child_process';
import request from 'supertest';
import { servedRoutes } from '../support/served-routes';
import { startTestService, type TestService } from '../support/test-service';

/** The validator is an ES module; it runs in a child process and reads the document on stdin. */
const validate = (document: unknown): { valid: boolean; errors?: unknown } => {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(text));
    process.stdout.write(JSON.stringify({ ...result, version: validator.version }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    input: JSON.stringify(document),
    encoding: 'utf8',
    cwd: process.cwd(),
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { valid: boolean; errors?: unknown; version: string };
};

const documented = (document: { paths: Record<string, Record<string, unknown>> }): string[] =>
  Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));

describe('OpenAPI documents', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.close();
  });

  it.each([
    ['/v1/openapi.json', '/v1/'],
    ['/admin/v1/openapi.json', '/admin/v1/'],
  ])('serves %s without a key as a valid OpenAPI 3.1 document covering every served route', async (path, prefix) => {
    const response = await request(service.app).get(path);
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.info.version).toBe('1.0.0');
    const result = validate(response.body);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    const served = servedRoutes(service.app).filter((route) => route.split(' ')[1]!.startsWith(prefix));
    expect(served.length).toBeGreaterThan(1);
    expect(documented(response.body).sort()).toEqual(served);
  });

  it('names its shared schemas after the API document’s objects, none of the read models’ internal fields among them', async () => {
    const publicDocument = (await request(service.app).get('/v1/openapi.json')).body;
    const adminDocument = (await request(service.app).get('/admin/v1/openapi.json')).body;
    expect(Object.keys(publicDocument.components.schemas).sort()).toEqual(
      [
        'ChangedSubscription',
        'Charge',
        'CreatedSubscription',
        'CreditNote',
        'Customer',
        'Error',
        'Invoice',
        'InvoiceLine',
        'Plan',
        'PlanMeter',
        'PublicOrganisation',
        'Subscription',
        'Tier',
        'UnitChange',
        'UsageEventBatch',
      ],
    );
    expect(Object.keys(adminDocument.components.schemas).sort()).toEqual(
      [
        'AccountingConnection', 'ApiKey', 'Charge', 'Cpi', 'CreatedApiKey', 'CreditNote', 'Customer', 'Error', 'Event', 'Invoice', 'InvoiceLine', 'Meter', 'MrrReportRow', 'Organisation',
        'Plan', 'PlanMeter', 'Projection', 'ProjectionRebuild', 'RevenueReportRow', 'Subscription', 'SubscriptionAsOf', 'TestClock', 'Tier', 'UsageEvent', 'WebhookDelivery', 'WebhookEndpoint', 'WebhookEndpointWithSecret', 'WorkersStatus',
      ],
    );
    const internal = JSON.stringify([publicDocument.components, adminDocument.components]).match(/"_\w+"/g);
    expect(internal).toBeNull();
  });

  it('shows examples of every request body that the route’s own schema accepts', async () => {
    const withBody = service.routes.filter((route) => route.body);
    expect(withBody.length).toBeGreaterThan(20);
    const refused = withBody.flatMap((route) =>
      route.examples!.filter((example) => !route.body!.safeParse(example.value).success).map((example) => `${route.operationId}: ${example.summary}`),
    );
    expect(refused).toEqual([]);
    const { body } = await request(service.app).get('/v1/openapi.json');
    const examples = body.paths['/v1/subscriptions'].post.requestBody.content['application/json'].examples;
    expect(examples['five-seats-of-a-per-seat-plan']).toEqual({ summary: 'Five seats of a per-seat plan', value: { customer_code: 'ACME', plan_code: 'team', units: 5 } });
  });

  it('declares its licence, a contact, and each tag its operations use, with a description', async () => {
    for (const path of ['/v1/openapi.json', '/admin/v1/openapi.json']) {
      const { body } = await request(service.app).get(path);
      expect(body.info.license).toEqual({ name: 'Apache-2.0', identifier: 'Apache-2.0' });
      expect(body.info.contact.name).toEqual(expect.any(String));
      const used = new Set(Object.values(body.paths as Record<string, Record<string, { tags: string[] }>>).flatMap((item) => Object.values(item).flatMap((op) => op.tags)));
      expect(body.tags.map((tag: { name: string }) => tag.name).sort()).toEqual([...used].sort());
      for (const tag of body.tags) expect(tag.description.length).toBeGreaterThan(20);
    }
  });

  it('documents request bodies from the same schemas the routes validate with', async () => {
    const { body } = await request(service.app).get('/admin/v1/openapi.json');
    const schema = body.paths['/admin/v1/organisations'].post.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'timezone', 'default_currency']));
    expect(schema.additionalProperties).toBe(false);
    expect(body.components.schemas.Organisation.properties.livemode).toEqual({ type: 'boolean' });
    const publicDocument = (await request(service.app).get('/v1/openapi.json')).body;
    const createCustomer = publicDocument.paths['/v1/customers'].post;
    expect(Object.keys(createCustomer.responses)).toEqual(expect.arrayContaining(['200', '201', '403', '409', '422', '502']));
    expect(createCustomer.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
    const createSubscription = publicDocument.paths['/v1/subscriptions'].post;
    expect(createSubscription.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', required: true }));
    expect(createSubscription['x-scope']).toBe('subscriptions:write');
  });
});
