import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { eventCatalogue } from '../../domain/event-catalogue';
import type { EventDefinition } from '../../domain/shared/event-definition';
import { subscriptionStream } from '../../domain/subscription/events';
import { publicView } from '../../api/paging';
import { SUBSCRIPTIONS } from '../../projections/read-models/subscriptions';
import { defineCatalogue } from '../support/catalogue-fixtures';
import { connectAccounting, createKey, createOrganisation } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';

/**
 * Stored events are never rewritten: an event appended in an old version is read through the
 * upcasters by everything that reads the log. Here SubscriptionCreated "upgrades" to a version 2
 * whose version 1 had `reference` where version 2 has `invoiceReference`, and no `label`.
 */
describe('upcasting: history, as-of views and rebuilt read models read old events through the upcasters', () => {
  const catalogue = eventCatalogue as Map<string, EventDefinition>;
  const current = catalogue.get('SubscriptionCreated')!;
  let service: TestService;
  let orgId: string;
  let oldId: string;
  beforeAll(async () => {
    service = await startTestService(tempDir('upcasting'));
    orgId = (await createOrganisation(service, { can_create_accounting_contacts: true })).id;
    await connectAccounting(service, orgId);
    await defineCatalogue(service, orgId);
    const key = await createKey(service, orgId, ['subscriptions:write', 'customers:write']);
    await request(service.app).post('/v1/customers').set(key.auth).send({ code: 'C1', name: 'Customer One' });
    const created = await request(service.app).post('/v1/subscriptions').set(key.auth).set('Idempotency-Key', 'up-1').send({ customer_code: 'C1', plan_code: 'seats', units: 2 });
    const [stored] = await service.services.store.readStream(subscriptionStream(created.body.id));

    // The upgrade: the code now reads version 2, lifting version 1 on read.
    catalogue.set('SubscriptionCreated', {
      ...current,
      version: 2,
      upcasters: {
        // (The subscription created above through the API is stored as version 1 in today's shape: it keeps its fields.)
        1: (data) => {
          const { reference, ...rest } = data as { reference?: string | null };
          return { invoiceReference: reference ?? null, label: null, ...rest };
        },
      },
    });
    // What the old code appended: version 1, in version 1's shape.
    oldId = 'sub_OldVersion0000000000001';
    const { invoiceReference: _reference, label: _label, ...v1 } = stored!.data as Record<string, unknown>;
    const { position } = await service.services.store.append(
      subscriptionStream(oldId),
      [{ id: randomUUID(), type: 'SubscriptionCreated', version: 1, data: { ...v1, subscriptionId: oldId, reference: 'PO-OLD' }, metadata: stored!.metadata }],
      'no_stream',
    );
    await service.services.projections.waitFor(position);
  });
  afterAll(async () => {
    catalogue.set('SubscriptionCreated', current);
    await service.close();
  });

  it('stores version 1 unchanged', async () => {
    const [raw] = await service.services.store.readStream(subscriptionStream(oldId));
    expect(raw).toMatchObject({ version: 1, data: { reference: 'PO-OLD' } });
    expect(raw!.data).not.toHaveProperty('invoiceReference');
  });

  it('shows it in the history as version 2', async () => {
    const response = await request(service.app).get(`/admin/v1/organisations/${orgId}/streams/${oldId}/events`).set(service.admin);
    expect(response.status).toBe(200);
    expect(response.body.data[0]).toMatchObject({ type: 'SubscriptionCreated', version: 2, data: { invoiceReference: 'PO-OLD', label: null } });
    expect(response.body.data[0].data).not.toHaveProperty('reference');
  });

  it('folds it into the as-of view and the live read model alike', async () => {
    const response = await request(service.app).get(`/admin/v1/organisations/${orgId}/subscriptions/${oldId}`).set(service.admin);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: oldId, invoice_reference: 'PO-OLD', label: null, units: 2 });
    const { invoices: _invoices, credit_notes: _creditNotes, ...subscription } = response.body;
    expect(publicView((await service.services.readStore.get(SUBSCRIPTIONS, oldId))!)).toEqual(subscription);
  });

  it('rebuilds it into a new generation of the read model through the upcaster', async () => {
    const before = await service.services.readStore.findAll(SUBSCRIPTIONS);
    const started = await request(service.app).post('/admin/v1/projections/rebuild').set(service.admin).send({ projections: ['subscriptions'], verify: true });
    expect(started.status).toBe(202);
    expect(await service.services.projections.rebuilt()).toMatchObject({ status: 'switched', differences: [] });
    expect(await service.services.readStore.findAll(SUBSCRIPTIONS)).toEqual(before);
    expect(await service.services.readStore.get(SUBSCRIPTIONS, oldId)).toMatchObject({ invoice_reference: 'PO-OLD', label: null });
  });
});
