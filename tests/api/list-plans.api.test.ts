import request from 'supertest';
import type { z } from 'zod';
import { CREDIT_NOTES } from '../../projections/read-models/credit-notes';
import { INVOICES } from '../../projections/read-models/invoices';
import { SUBSCRIPTIONS } from '../../projections/read-models/subscriptions';
import { createKey, createOrganisation } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';

/** The lists whose pages must not read more than a page, whatever the organisation's size, with a value for each filter. */
const LISTS: Readonly<Record<string, Readonly<{ collection: string; cursor: string; filters: Readonly<Record<string, readonly string[]>> }>>> = {
  '/v1/subscriptions': { collection: SUBSCRIPTIONS, cursor: 'sub_cursor', filters: { customer: ['cus_x'], customer_code: ['C1'], status: ['active', 'active,ended'] } },
  '/v1/invoices': { collection: INVOICES, cursor: 'inv_cursor', filters: { subscription: ['sub_x'], customer: ['cus_x'], status: ['paid', 'paid,voided'] } },
  '/v1/credit_notes': { collection: CREDIT_NOTES, cursor: 'cn_cursor', filters: { subscription: ['sub_x'], customer: ['cus_x'], status: ['paid', 'paid,voided'] } },
};

/**
 * Every documented filter of the lists that grow with an organisation (its subscriptions,
 * invoices, credit notes), alone, with several values, and with a cursor, is answered by walking an
 * index in the list's order: the SQLite query plan of each statement the list ran neither scans
 * the table nor sorts it (`SCAN rm_…`, `USE TEMP B-TREE FOR ORDER BY`), so a page reads about a
 * page of documents at 100,000 invoices as at 10 (the bench's filtered-list row measures it).
 */
describe('lists keep an index for each documented filter', () => {
  let service: TestService;
  let auth: { Authorization: string };
  let organisationId: string;
  const statements = new Set<string>();
  beforeAll(async () => {
    service = await startTestService(tempDir('list-plans'));
    const org = await createOrganisation(service);
    organisationId = org.id;
    ({ auth } = await createKey(service, org.id, ['subscriptions:read', 'invoices:read', 'credit_notes:read']));
    // Every statement the store prepares from now on (it prepares each text once).
    const { db } = service.services;
    const prepare = db.prepare.bind(db);
    db.prepare = (sql: string) => {
      statements.add(sql);
      return prepare(sql);
    };
  });
  afterAll(async () => {
    await service.close();
  });

  /** The plan's steps, grouped by the query (or subquery) they belong to. */
  const planOf = (sql: string): string[][] => {
    const parameters = (sql.match(/\?/g) ?? []).map(() => null);
    const rows = service.services.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { parent: number; detail: string }[];
    const groups = new Map<number, string[]>();
    for (const { parent, detail } of rows) groups.set(parent, [...(groups.get(parent) ?? []), detail]);
    return [...groups.values()];
  };

  it.each(Object.keys(LISTS))('%s: every filter the route documents, alone, with several values, and after a cursor', async (path) => {
    const { collection, cursor, filters } = LISTS[path]!;
    const route = service.routes.find((r) => r.method === 'get' && r.path === path)!;
    const documented = Object.keys((route.query as z.ZodObject).shape).filter((name) => name !== 'limit' && name !== 'starting_after');
    expect(Object.keys(filters).sort()).toEqual(documented.sort());
    const filtered = ['', ...Object.entries(filters).flatMap(([filter, values]) => values.map((value) => `${filter}=${value}&`))];
    const plans = async (query: string) => {
      statements.clear();
      expect((await request(service.app).get(`${path}?${query}`).set(auth)).status).toBe(200);
      const listed = [...statements].filter((sql) => sql.includes(`FROM rm_${collection} `) && sql.includes('ORDER BY'));
      expect(listed.length).toBeGreaterThan(0);
      return listed.map(planOf);
    };
    const checked: { query: string; plan: ReturnType<typeof planOf> }[] = [];
    for (const query of filtered) for (const plan of await plans(query)) checked.push({ query, plan });
    // A document to page after (the cursor is a position, whatever it holds); the pages after it are empty.
    await service.services.readStore.commit([{ op: 'put', collection, doc: { id: cursor, _organisation: organisationId, created: '2026-01-01T00:00:00.000Z' } }]);
    for (const query of filtered.map((filter) => `${filter}starting_after=${cursor}`)) for (const plan of await plans(query)) checked.push({ query, plan });

    for (const { query, plan } of checked) {
      const steps = plan.flat();
      expect({ query, steps }).toEqual({ query, steps: expect.arrayContaining([expect.stringMatching(/^SEARCH rm_\S+ USING (COVERING )?INDEX/)]) as unknown });
      // No read model table read whole, and none sorted: a sort only ever merges the walks of several values (sorting their pages).
      expect({ query, steps }).toEqual({ query, steps: expect.not.arrayContaining([expect.stringMatching(/^SCAN rm_/)]) as unknown });
      const sortsRows = plan.filter((group) => group.some((step) => /^SEARCH rm_/.test(step)) && group.some((step) => /TEMP B-TREE/.test(step)));
      expect({ query, sortsRows }).toEqual({ query, sortsRows: [] });
    }
  });
});
