import fc from 'fast-check';
import { addDays } from '../../domain/pricing/calendar';
import type { Condition, Doc } from '../../infra/read-store/port';
import type { Projection } from '../../projections/engine/projection';
import { REVENUE_MONTHS } from '../../projections/read-models/revenue-reports/invoiced-revenue';
import { MRR_MONTHS } from '../../projections/read-models/revenue-reports/mrr-movements';
import { memoryContext } from '../../projections/engine/replay';
import { historyAt } from '../../projections/read-models/revenue-reports/report-history';
import { lastResetUpTo } from '../../projections/read-models/revenue-reports/report-organisations';
import { revenueReportsProjection } from '../../projections/read-models/revenue-reports/revenue-reports';
import { testMetadata } from '../support/events';
import { organisationSettings } from '../support/organisation-fixtures';
import { created, ended, restored, unitsChanged } from '../support/recurring-events';

/** The memory context as a read store: `findAll` with the conditions the history's reads use. */
const readStoreOf = (context: ReturnType<typeof memoryContext>) => {
  const meets = (doc: Doc, condition: Condition) =>
    'eq' in condition ? doc[condition.field] === condition.eq : 'lte' in condition ? String(doc[condition.field]) <= condition.lte : false;
  return {
    findAll: <T extends Doc>(collection: string, where: readonly Condition[] = []) =>
      Promise.resolve(context.documents(collection).filter((doc) => where.every((condition) => meets(doc, condition))) as T[]),
    get: <T extends Doc>(collection: string, id: string) => context.get<T>(collection, id),
  };
};

const byId = (docs: readonly Doc[]) => [...docs].sort((a, b) => (a.id < b.id ? -1 : 1));

/** One step of a sandbox's history and how long after the one before it was recorded. */
const step = fc.record({
  kind: fc.constantFrom('subscribe', 'change', 'end', 'restore', 'invoice', 'void', 'timezone', 'reset'),
  pick: fc.nat(),
  units: fc.integer({ min: 1, max: 20 }),
  day: fc.integer({ min: 0, max: 700 }),
  after: fc.constantFrom(1, 7, 999, 1_000, 59_000, 3_600_000, 86_400_000, 35 * 86_400_000),
});

describe('the revenue reports’ history (property)', () => {
  it('sums, at every recorded instant, to the months the read model held then: across seconds, hours, months, resets and timezones', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const context = memoryContext();
        let recorded = Date.parse('2026-01-01T00:00:00.000Z');
        let generation = 0;
        let n = 0;
        const subscriptions: string[] = [];
        const invoices: string[] = [];
        const apply = async (type: string, data: unknown, businessTime = new Date(recorded).toISOString()) => {
          const metadata = testMetadata({ organisationId: 'org_1', livemode: false, resetGeneration: generation, recordedTime: new Date(recorded).toISOString(), businessTime });
          // The steps' events as the log hands them to any projection: typed by what they carry, not checked here.
          await (revenueReportsProjection as Projection).apply({ id: `evt_${n}`, type, version: 1, data, metadata, streamId: 'spec', revision: 0, position: BigInt(++n) }, context);
        };
        await apply('OrganisationCreated', { organisationId: 'org_1', livemode: false, liveOrganisationId: 'org_live', settings: organisationSettings });
        const seen: { at: number; months: Record<string, Doc[]> }[] = [];
        for (const { kind, pick, units, day, after } of steps) {
          recorded += after;
          const subscription = subscriptions[pick % Math.max(subscriptions.length, 1)];
          const date = addDays('2026-01-01', day);
          const event = {
            subscribe: () => {
              const id = `sub_${n}`;
              subscriptions.push(id);
              return { type: 'SubscriptionCreated', data: created({ subscriptionId: id, organisationId: 'org_1', units, startDate: date, currency: pick % 2 ? 'EUR' : 'GBP' }) };
            },
            change: () => subscription && { ...unitsChanged(units, date, addDays(date, 30)), data: { ...unitsChanged(units, date, addDays(date, 30)).data, subscriptionId: subscription } },
            end: () => subscription && { ...ended(date), data: { ...ended(date).data, subscriptionId: subscription } },
            restore: () => subscription && { ...restored('ended'), data: { ...restored('ended').data, subscriptionId: subscription } },
            invoice: () => {
              const id = `inv_${n}`;
              invoices.push(id);
              const line = { lineId: 'il_1', type: 'subscription', revenueType: 'renewal', meterId: null, usageQuantity: null, name: null, description: null, units: null, quantity: '1', unitAmount: `${units}.0000`, amount: `${units}.0000`, discountAmount: '0.0000', chargeAmount: `${units}.0000`, effectiveDate: null, account: 'revenue' };
              return { type: 'InvoiceRaised', data: { invoiceId: id, organisationId: 'org_1', customerId: 'cus_1', subscriptionId: null, currency: 'GBP', reference: null, invoiceDate: `${date}T12:00:00.000Z`, dueDate: null, lines: [line], subtotal: line.amount } };
            },
            void: () => invoices.length > 0 && { type: 'InvoiceRemoved', data: { invoiceId: invoices[pick % invoices.length], status: 'voided' } },
            timezone: () => ({ type: 'OrganisationSettingsChanged', data: { organisationId: 'org_1', changes: { timezone: pick % 2 ? 'America/New_York' : 'Europe/London' } } }),
            reset: () => ({ type: 'SandboxReset', data: { organisationId: 'org_1', generation: generation + 1, copy: { settings: true, catalogue: true, customers: true, subscriptions: false } } }),
          }[kind]();
          if (!event) continue;
          await apply(event.type, event.data);
          if (event.type === 'SandboxReset') generation += 1;
          seen.push({ at: recorded, months: { [MRR_MONTHS]: context.documents(MRR_MONTHS), [REVENUE_MONTHS]: context.documents(REVENUE_MONTHS) } });
        }
        const store = readStoreOf(context);
        for (const [i, { at, months }] of seen.entries()) {
          for (const instant of [at, seen[i + 1] ? seen[i + 1]!.at - 1 : at + 86_400_000]) {
            const asOf = new Date(instant);
            const history = await historyAt(store, 'org_1', asOf.toISOString(), await lastResetUpTo(store, 'org_1', asOf));
            for (const collection of [MRR_MONTHS, REVENUE_MONTHS]) expect(byId(history.get(collection) ?? [])).toEqual(byId(months[collection]!));
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
