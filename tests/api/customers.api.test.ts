import request from 'supertest';
import { expectError } from '../support/api-assertions';
import { accountingControl, connectAccounting, createKey, createOrganisation, openSandbox } from '../support/fixtures';
import { startTestService, type TestService } from '../support/test-service';

describe('customers', () => {
  let service: TestService;
  let orgId: string;
  let tenantId: string;
  let auth: { Authorization: string };
  beforeAll(async () => {
    service = await startTestService();
    orgId = (await createOrganisation(service, { can_create_accounting_contacts: true })).id;
    tenantId = await connectAccounting(service, orgId);
    auth = (await createKey(service, orgId, ['customers:read', 'customers:write'])).auth;
  });
  afterAll(async () => {
    await service.close();
  });
  afterEach(async () => {
    await accountingControl(service, '/faults');
  });

  const ledger = () => service.services.accounting.tenant(tenantId);
  const create = (body: object, headers: Record<string, string> = {}) =>
    request(service.app).post('/v1/customers').set(auth).set(headers).send(body);
  const customerCount = () => service.services.readStore.count('customers', [{ field: '_organisation', eq: orgId }]);

  it('creates the contact and the customer (201), then returns the same customer (200) when asked again', async () => {
    const first = await create({ code: 'CUST-001', name: 'Ada Ltd', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.co.uk' });
    expect(first.status).toBe(201);
    const contact = await ledger().findContactByNumber('CUST-001');
    expect(contact).toMatchObject({ name: 'Ada Ltd', email: 'ada@example.co.uk' });
    expect(first.body).toEqual({
      id: expect.stringMatching(/^cus_/),
      object: 'customer',
      code: 'CUST-001',
      name: 'Ada Ltd',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.co.uk',
      status: 'active',
      accounting_contact_id: contact!.id,
      created: expect.any(String),
    });
    const again = await create({ code: 'CUST-001', name: 'Something else' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await request(service.app).get(`/v1/customers/${first.body.id}`).set(auth).then((r) => r.body)).toEqual(first.body);
  });

  it('adopts an existing contact with that contact number (201) and creates nothing there', async () => {
    const contact = await ledger().createContact({ name: 'Existing Contact', contactNumber: 'EXIST-1' }, 'setup-exist-1');
    const before = (await ledger().findContactByName('Existing Contact'))!.id;
    const adopted = await create({ code: 'EXIST-1', name: 'Another name' });
    expect(adopted.status).toBe(201);
    expect(adopted.body).toMatchObject({ code: 'EXIST-1', accounting_contact_id: contact.id });
    expect(before).toBe(contact.id);
    expect(await ledger().findContactByName('Another name')).toBeNull();
  });

  it('adopting an existing contact takes the contact’s name and email, ignoring the request’s', async () => {
    await ledger().createContact({ name: 'Ledger Name Ltd', contactNumber: 'ADOPT-2', email: 'books@ledger.example', firstName: 'Lena' }, 'setup-adopt-2');
    const adopted = await create({ code: 'ADOPT-2', name: 'Request Name', email: 'request@example.com', first_name: 'Rex' });
    expect(adopted.status).toBe(201);
    expect(adopted.body).toMatchObject({ name: 'Ledger Name Ltd', email: 'books@ledger.example', first_name: 'Lena' });
  });

  it('lists only imported customers, with code, case-insensitive email and status filters', async () => {
    await ledger().createContact({ name: 'Not Imported', contactNumber: 'NOPE-1' }, 'setup-nope-1');
    await create({ code: 'LIST-1', name: 'List One', email: 'Mixed.Case@Example.com' });
    await create({ code: 'LIST-2', name: 'List Two' });
    const all = await request(service.app).get('/v1/customers').set(auth);
    expect(all.body.data.map((c: { code: string }) => c.code)).not.toContain('NOPE-1');
    expect(all.body.data.slice(0, 2).map((c: { code: string }) => c.code)).toEqual(['LIST-2', 'LIST-1']);
    const byEmail = await request(service.app).get('/v1/customers?email=mixed.case@EXAMPLE.COM').set(auth);
    expect(byEmail.body.data.map((c: { code: string }) => c.code)).toEqual(['LIST-1']);
    const byCode = await request(service.app).get('/v1/customers?code=LIST-2').set(auth);
    expect(byCode.body.data).toHaveLength(1);
    const id = byCode.body.data[0].id as string;
    await request(service.app).patch(`/admin/v1/organisations/${orgId}/customers/${id}`).set(service.admin).send({ status: 'inactive' });
    const inactive = await request(service.app).get('/v1/customers?status=inactive').set(auth);
    expect(inactive.body.data.map((c: { id: string }) => c.id)).toEqual([id]);
    const page = await request(service.app).get('/v1/customers?limit=1').set(auth);
    expect(page.body.has_more).toBe(true);
    expectError(await request(service.app).get('/v1/customers?status=gone').set(auth), 422, 'invalid_request_error', 'invalid_parameter', 'status');
    expectError(await request(service.app).get('/v1/customers/cus_nope').set(auth), 404, 'not_found', 'customer_not_found');
  });

  it('pages on after a customer that left the filter: starting_after is a position, not a filter member', async () => {
    const org = await createOrganisation(service, { name: 'Paging', can_create_accounting_contacts: true });
    await connectAccounting(service, org.id);
    const key = (await createKey(service, org.id, ['customers:read', 'customers:write'])).auth;
    for (const code of ['PG-1', 'PG-2', 'PG-3']) {
      expect((await request(service.app).post('/v1/customers').set(key).send({ code, name: `Paging ${code}` })).status).toBe(201);
    }
    const list = (query: string) => request(service.app).get(`/v1/customers?${query}`).set(key);
    const ids = (response: request.Response) => response.body.data.map((c: { id: string }) => c.id) as string[];
    const order = ids(await list('status=active'));
    expect(order).toHaveLength(3);
    const first = await list('status=active&limit=1');
    expect(ids(first)).toEqual([order[0]]);
    // The last object of the page turns inactive before the next page is asked for.
    await request(service.app).patch(`/admin/v1/organisations/${org.id}/customers/${order[0]}`).set(service.admin).send({ status: 'inactive' });
    const next = await list(`status=active&limit=1&starting_after=${order[0]}`);
    expect(next.status).toBe(200);
    expect(ids(next)).toEqual([order[1]]);
    expect(next.body.has_more).toBe(true);
    // An id that is not the caller's, or not a customer, is still 422 naming starting_after.
    const elsewhere = (await request(service.app).get('/v1/customers?limit=1').set(auth)).body.data[0].id as string;
    expectError(await list(`starting_after=${elsewhere}`), 422, 'invalid_request_error', 'invalid_parameter', 'starting_after');
    expectError(await list(`starting_after=${org.id}`), 422, 'invalid_request_error', 'invalid_parameter', 'starting_after');
  });

  it.each([
    [{ name: 'No code' }, 'code'],
    [{ code: '', name: 'Empty' }, 'code'],
    [{ code: 'x'.repeat(51), name: 'Long' }, 'code'],
    [{ code: ' LEAD', name: 'Lead space' }, 'code'],
    [{ code: 'TRAIL ', name: 'Trail space' }, 'code'],
    [{ code: 'QU"OTE', name: 'Quote' }, 'code'],
    [{ code: "APOS'", name: 'Apostrophe' }, 'code'],
    [{ code: 'BACK\\SLASH', name: 'Backslash' }, 'code'],
    [{ code: 'OK-1' }, 'name'],
    [{ code: 'OK-1', name: '' }, 'name'],
    [{ code: 'OK-1', name: 'n'.repeat(256) }, 'name'],
    [{ code: 'OK-1', name: 'N', first_name: 'f'.repeat(256) }, 'first_name'],
    [{ code: 'OK-1', name: 'N', email: 'no-at-sign' }, 'email'],
    [{ code: 'OK-1', name: 'N', email: 'a..b@example.com' }, 'email'],
    [{ code: 'OK-1', name: 'N', email: 'a@example.c' }, 'email'],
    [{ code: 'OK-1', name: 'N', email: 'a@example.c0m' }, 'email'],
    [{ code: 'OK-1', name: 'N', email: 'a b@example.com' }, 'email'],
    [{ code: 'OK-1', name: 'N', email: 'a@localhost' }, 'email'],
    [{ code: 'OK-1', name: 'N', nickname: 'x' }, 'nickname'],
  ])('refuses %j with 422 naming %s, creating no customer and no contact', async (body, param) => {
    const before = await customerCount();
    expectError(await create(body), 422, 'invalid_request_error', 'invalid_parameter', param);
    expect(await customerCount()).toBe(before);
    expect(await ledger().findContactByNumber('OK-1')).toBeNull();
  });

  it.each([[' '], ['   '], ['\t\n']])('refuses the blank name %j with 422 naming name, never a 502 from the accounting system: names are not blank', async (name) => {
    const before = await customerCount();
    expectError(await create({ code: 'BLANK-1', name }), 422, 'invalid_request_error', 'invalid_parameter', 'name');
    expect(await customerCount()).toBe(before);
    expect(await ledger().findContactByNumber('BLANK-1')).toBeNull();
  });

  it('answers 400 invalid_json, 413 payload_too_large and 422 for a body that is not an object', async () => {
    const raw = (text: string) => request(service.app).post('/v1/customers').set(auth).set('Content-Type', 'application/json').send(text);
    expectError(await raw('{"code": "X",'), 400, 'invalid_request_error', 'invalid_json');
    expectError(await raw(JSON.stringify({ code: 'BIG', name: 'x'.repeat(100_000) })), 413, 'invalid_request_error', 'payload_too_large');
    expectError(await raw('[1, 2]'), 422, 'invalid_request_error', 'invalid_parameter');
    expect(await ledger().findContactByNumber('BIG')).toBeNull();
  });

  it('accepts the email forms the rule allows', async () => {
    const response = await create({ code: 'MAIL-1', name: 'Mail One', email: "o'neil.first+tag_x-y@mail.example-host.io" });
    expect(response.status).toBe(201);
  });

  it('refuses a name already used by a contact with 409 accounting_contact_name_taken, changing nothing', async () => {
    await ledger().createContact({ name: 'Taken Name', contactNumber: 'TAKEN-0' }, 'setup-taken');
    const before = await customerCount();
    expectError(await create({ code: 'TAKEN-1', name: 'taken name' }), 409, 'conflict', 'accounting_contact_name_taken', 'name');
    expect(await customerCount()).toBe(before);
    expect(await ledger().findContactByNumber('TAKEN-1')).toBeNull();
  });

  it('refuses an archived contact with 409 accounting_contact_archived', async () => {
    const contact = await ledger().createContact({ name: 'Archived Co', contactNumber: 'ARCH-1' }, 'setup-arch');
    await accountingControl(service, `/tenants/${tenantId}/contacts/${contact.id}/archive`);
    expectError(await create({ code: 'ARCH-1', name: 'Archived Co' }), 409, 'conflict', 'accounting_contact_archived');
  });

  it('refuses a contact that already belongs to another customer with 409 customer_not_importable', async () => {
    expect((await create({ code: 'case-1', name: 'Case One' })).status).toBe(201);
    // The accounting system matches contact numbers without regard to case: CASE-1 is case-1's contact.
    const before = await customerCount();
    expectError(await create({ code: 'CASE-1', name: 'Case Upper' }), 409, 'conflict', 'customer_not_importable', 'code');
    expect(await customerCount()).toBe(before);
  });

  it('answers 409 customer_not_created when a contact with the code appears while it is being created', async () => {
    await accountingControl(service, '/faults', { kind: 'refuse', pathPrefix: `/tenants/${tenantId}/contacts`, method: 'POST', count: 1, status: 409, code: 'contact_number_taken', message: 'Contact number RACE-9 is in use.' });
    const before = await customerCount();
    expectError(await create({ code: 'RACE-9', name: 'Race Nine' }), 409, 'conflict', 'customer_not_created', 'code');
    expect(await customerCount()).toBe(before);
    // Asked again, the contact that appeared (here: none did) is adopted or created.
    expect((await create({ code: 'RACE-9', name: 'Race Nine' })).status).toBe(201);
  });

  it('answers 502 accounting_error with the system’s message when it refuses or fails', async () => {
    await accountingControl(service, '/faults', { kind: 'refuse', pathPrefix: `/tenants/${tenantId}/contacts`, method: 'POST', count: 1, status: 422, message: 'Contact rejected by rule 7' });
    const refused = await create({ code: 'FAIL-1', name: 'Fail One' });
    expectError(refused, 502, 'api_error', 'accounting_error');
    expect(refused.body.error.message).toContain('Contact rejected by rule 7');
    await accountingControl(service, '/faults', { kind: '5xx', pathPrefix: `/tenants/${tenantId}/contacts`, method: 'POST', count: 20 });
    expectError(await create({ code: 'FAIL-2', name: 'Fail Two' }), 502, 'api_error', 'accounting_error');
    await accountingControl(service, '/faults');
    expect((await create({ code: 'FAIL-1', name: 'Fail One' })).status).toBe(201);
  });

  it('needs the organisation’s permission, the connection, the scope, and room in the plan', async () => {
    const closed = await createOrganisation(service, { name: 'Closed' });
    const closedKey = await createKey(service, closed.id, ['customers:write']);
    expectError(
      await request(service.app).post('/v1/customers').set(closedKey.auth).send({ code: 'P-1', name: 'P' }),
      403,
      'permission_error',
      'accounting_contact_creation_disabled',
    );
    await request(service.app).patch(`/admin/v1/organisations/${closed.id}`).set(service.admin).send({ can_create_accounting_contacts: true });
    expectError(
      await request(service.app).post('/v1/customers').set(closedKey.auth).send({ code: 'P-1', name: 'P' }),
      409,
      'conflict',
      'accounting_not_connected',
    );
    await connectAccounting(service, closed.id);
    await request(service.app).patch(`/admin/v1/organisations/${closed.id}`).set(service.admin).send({ plan_limits: { customers: 1 } });
    expect((await request(service.app).post('/v1/customers').set(closedKey.auth).send({ code: 'P-1', name: 'P' })).status).toBe(201);
    expectError(
      await request(service.app).post('/v1/customers').set(closedKey.auth).send({ code: 'P-2', name: 'P two' }),
      403,
      'permission_error',
      'plan_limit_reached',
    );
    const readOnly = await createKey(service, orgId, ['customers:read']);
    expectError(await request(service.app).post('/v1/customers').set(readOnly.auth).send({ code: 'S-1', name: 'S' }), 403, 'permission_error', 'insufficient_scope');
  });

  it('never counts a sandbox against the plan limits and keeps its demonstration organisation apart', async () => {
    const live = await createOrganisation(service, { name: 'Limited', can_create_accounting_contacts: true });
    await request(service.app).patch(`/admin/v1/organisations/${live.id}`).set(service.admin).send({ plan_limits: { customers: 0 } });
    const sandbox = await openSandbox(service, live.id);
    const liveTenant = await connectAccounting(service, live.id);
    const sandboxTenant = await connectAccounting(service, sandbox.id);
    expect(sandboxTenant).not.toBe(liveTenant);
    const sandboxKey = await createKey(service, sandbox.id, ['customers:write', 'customers:read']);
    const created = await request(service.app).post('/v1/customers').set(sandboxKey.auth).send({ code: 'SB-1', name: 'Sandbox One' });
    expect(created.status).toBe(201);
    expect(await service.services.accounting.tenant(liveTenant).findContactByNumber('SB-1')).toBeNull();
    expect(await service.services.accounting.tenant(sandboxTenant).findContactByNumber('SB-1')).not.toBeNull();
    const liveKey = await createKey(service, live.id, ['customers:read']);
    expect((await request(service.app).get('/v1/customers').set(liveKey.auth)).body.data).toEqual([]);
  });

  describe('idempotency on POST', () => {
    it('replays a success with Idempotent-Replayed and does nothing twice', async () => {
      const headers = { 'Idempotency-Key': 'idem-replay-1' };
      const first = await create({ code: 'IDEM-1', name: 'Idem One' }, headers);
      const replay = await create({ name: 'Idem One', code: 'IDEM-1' }, headers);
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
    });

    it('refuses the same key with a different request: 409 idempotency_conflict', async () => {
      const headers = { 'Idempotency-Key': 'idem-conflict-1' };
      await create({ code: 'IDEM-2', name: 'Idem Two' }, headers);
      expectError(await create({ code: 'IDEM-3', name: 'Idem Three' }, headers), 409, 'conflict', 'idempotency_conflict');
    });

    it('keeps keys per API key', async () => {
      const other = await createKey(service, orgId, ['customers:write']);
      await create({ code: 'IDEM-4', name: 'Idem Four' }, { 'Idempotency-Key': 'shared-key' });
      const response = await request(service.app).post('/v1/customers').set(other.auth).set('Idempotency-Key', 'shared-key').send({ code: 'IDEM-5', name: 'Idem Five' });
      expect(response.status).toBe(201);
    });

    it('releases the key after a failure so a corrected request can use it', async () => {
      await ledger().createContact({ name: 'Clash Name', contactNumber: 'CLASH-0' }, 'setup-clash');
      const headers = { 'Idempotency-Key': 'idem-release-1' };
      expectError(await create({ code: 'IDEM-6', name: 'Clash Name' }, headers), 409, 'conflict', 'accounting_contact_name_taken');
      const corrected = await create({ code: 'IDEM-6', name: 'Fresh Name' }, headers);
      expect(corrected.status).toBe(201);
    });

    it('answers 409 request_in_progress with Retry-After: 2 while the first request runs', async () => {
      await accountingControl(service, '/faults', { kind: 'slow', pathPrefix: `/tenants/${tenantId}/contacts`, method: 'GET', count: 1, delayMs: 400 });
      const headers = { 'Idempotency-Key': 'idem-running-1' };
      const body = { code: 'IDEM-7', name: 'Idem Seven' };
      const first = create(body, headers).then((r) => r);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = await create(body, headers);
      expectError(second, 409, 'conflict', 'request_in_progress');
      expect(second.headers['retry-after']).toBe('2');
      expect((await first).status).toBe(201);
    });

    it.each([['has space'], ['x'.repeat(256)], ['tab\there'], ['é']])('refuses the key %j with 422 idempotency_key_invalid', async (key) => {
      expectError(await create({ code: 'IDEM-8', name: 'Idem Eight' }, { 'Idempotency-Key': key }), 422, 'invalid_request_error', 'idempotency_key_invalid');
    });
  });
});

describe('admin: customer import', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.close();
  });

  it('imports a customer, creating the contact only when none has that number', async () => {
    const org = await createOrganisation(service);
    const tenant = await connectAccounting(service, org.id);
    const existing = await service.services.accounting.tenant(tenant).createContact({ name: 'Old Contact', contactNumber: 'OLD-1' }, 'import-old');
    const adopt = await request(service.app).post(`/admin/v1/organisations/${org.id}/customers`).set(service.admin).send({ code: 'OLD-1', name: 'Old Contact' });
    expect(adopt.status).toBe(201);
    expect(adopt.body.accounting_contact_id).toBe(existing.id);
    const fresh = await request(service.app).post(`/admin/v1/organisations/${org.id}/customers`).set(service.admin).send({ code: 'NEW-1', name: 'New Contact', email: 'n@new.example' });
    expect(fresh.status).toBe(201);
    expect(await service.services.accounting.tenant(tenant).findContactByNumber('NEW-1')).toMatchObject({ id: fresh.body.accounting_contact_id });
    expectError(
      await request(service.app).post(`/admin/v1/organisations/${org.id}/customers`).set(service.admin).send({ code: 'NEW-1', name: 'Again' }),
      409,
      'conflict',
      'customer_exists',
      'code',
    );
    const renamed = await request(service.app).patch(`/admin/v1/organisations/${org.id}/customers/${fresh.body.id}`).set(service.admin).send({ name: 'Renamed', email: null });
    expect(renamed.body).toMatchObject({ name: 'Renamed', email: null, status: 'active' });
  });
});
