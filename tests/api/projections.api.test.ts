import request from 'supertest';
import { allProjections } from '../../projections/read-models/all';
import { ORGANISATIONS } from '../../projections/read-models/organisations';
import { expectError } from '../support/api-assertions';
import { createOrganisation } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';

describe('GET /admin/v1/projections and blue/green rebuilds', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(tempDir('projections'));
    for (let i = 0; i < 5; i++) await createOrganisation(service, { name: `Org ${i}` });
  });
  afterAll(async () => {
    await service.close();
  });

  const admin = () => request(service.app);
  const rebuilt = async () => {
    const done = await service.services.projections.rebuilt();
    return (await admin().get('/admin/v1/projections/rebuild').set(service.admin)).body ?? done;
  };

  it('lists each projection with its version, checkpoint, the head, the lag and its status', async () => {
    const head = Number(await service.services.store.headPosition());
    const response = await admin().get('/admin/v1/projections').set(service.admin);
    expect(response.status).toBe(200);
    expect(response.body.has_more).toBe(false);
    expect(response.body.data).toEqual(
      allProjections.map((projection) => ({
        id: projection.name,
        object: 'projection',
        name: projection.name,
        version: projection.version,
        checkpoint: head,
        head,
        lag: 0,
        status: 'live',
      })),
    );
    expectError(await admin().get('/admin/v1/projections'), 401, 'authentication_error', 'invalid_api_key');
  });

  it('answers 404 for the rebuild before any has run', async () => {
    expectError(await admin().get('/admin/v1/projections/rebuild').set(service.admin), 404, 'not_found', 'rebuild_not_found');
  });

  it('rebuilds a new generation while writes and reads go on, reports what differed, and switches reads to it', async () => {
    const before = await service.services.readStore.findAll(ORGANISATIONS);
    // Damage the live generation: the new one, built from the log alone, differs exactly there.
    await service.services.readStore.commit([
      { op: 'put', collection: ORGANISATIONS, doc: { ...before[0]!, name: 'corrupted' } },
      { op: 'put', collection: ORGANISATIONS, doc: { id: 'org_stray' } },
    ]);
    const started = await admin().post('/admin/v1/projections/rebuild').set(service.admin).send({ projections: ['organisations'], verify: true });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ object: 'projection_rebuild', status: 'running', projections: ['organisations'], verify: true });
    // Writes meanwhile land in the live generation, and then in the new one (the rebuild of so short
    // a log may already have switched: the runner's own test holds one open to see it rebuilding).
    const created = await Promise.all([1, 2, 3].map((i) => createOrganisation(service, { name: `During ${i}` })));
    for (const organisation of created) {
      const read = await admin().get(`/admin/v1/organisations/${organisation.id}`).set(service.admin);
      expect(read.body).toEqual(organisation);
    }
    const report = await rebuilt();
    expect(report).toMatchObject({ status: 'switched', events: expect.any(Number), eta_seconds: 0, error: null });
    expect(report.differences).toEqual(
      expect.arrayContaining([
        { projection: 'organisations', collection: ORGANISATIONS, id: before[0]!.id, difference: 'changed' },
        { projection: 'organisations', collection: ORGANISATIONS, id: 'org_stray', difference: 'only_live' },
      ]),
    );
    expect(report.differences).toHaveLength(2);
    const after = await service.services.readStore.findAll(ORGANISATIONS);
    expect(after).toEqual(expect.arrayContaining([...before, ...created.map((o) => expect.objectContaining({ id: o.id }))]));
    expect(after).toHaveLength(before.length + created.length);
    const listed = await admin().get('/admin/v1/projections').set(service.admin);
    const head = Number(await service.services.store.headPosition());
    expect(listed.body.data.find((p: { name: string }) => p.name === 'organisations')).toMatchObject({ status: 'live', checkpoint: head, lag: 0 });
  });

  it('verifies a rebuild of every projection without a difference when nothing was damaged', async () => {
    expect((await admin().post('/admin/v1/projections/rebuild').set(service.admin).send({ verify: true })).status).toBe(202);
    expect(await rebuilt()).toMatchObject({ status: 'switched', projections: allProjections.map((p) => p.name), differences: [] });
  });

  it('refuses an unknown projection name', async () => {
    const response = await admin().post('/admin/v1/projections/rebuild').set(service.admin).send({ projections: ['nonsense'] });
    expectError(response, 422, 'invalid_request_error', 'invalid_parameter', 'projections');
  });
});
