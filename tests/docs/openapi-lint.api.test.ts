import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { startTestService, type TestService } from '../support/test-service';

type Finding = Readonly<{ tool: string; document: string; rule: string; severity: string; path: string; message: string }>;

/** Spectral's `spectral:oas` and Redocly's `recommended` rulesets over the documents, in a child process (Redocly's core is an ES module). */
const lint = (documents: Record<string, unknown>): Finding[] => {
  const run = spawnSync(process.execPath, [join(__dirname, 'openapi-lint.mjs')], { input: JSON.stringify(documents), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as Finding[];
};

describe('the served OpenAPI documents, linted as an integrator’s tools would', () => {
  let service: TestService;
  let documents: Record<string, { paths: Record<string, Record<string, { description?: string }>> }>;
  beforeAll(async () => {
    service = await startTestService();
    documents = {
      'v1/openapi.json': (await request(service.app).get('/v1/openapi.json')).body,
      'admin/v1/openapi.json': (await request(service.app).get('/admin/v1/openapi.json')).body,
    };
  });
  afterAll(async () => {
    await service.close();
  });

  it('passes spectral:oas and Redocly’s recommended rules with no error, warning or hint', () => {
    expect(lint(documents)).toEqual([]);
  }, 60_000);

  it('would report an operation without a description and an example its schema refuses', () => {
    const broken = structuredClone(documents['v1/openapi.json']!);
    delete broken.paths['/v1/customers']!.get!.description;
    const endBody = broken.paths['/v1/subscriptions/{id}/end']!.post as { requestBody: { content: Record<string, { examples: Record<string, { value: unknown }> }> } };
    endBody.requestBody.content['application/json']!.examples['at-the-renewal-date']!.value = { when: 'later' };
    const found = lint({ broken }).map((finding) => `${finding.tool} ${finding.rule}`);
    expect(found).toEqual(
      expect.arrayContaining(['spectral operation-description', 'spectral oas3-valid-media-example', 'redocly no-invalid-media-type-examples']),
    );
  }, 60_000);
});
