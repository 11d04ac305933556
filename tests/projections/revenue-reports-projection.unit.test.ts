import type { InvoiceLine } from '../../domain/invoice/events';
import { formatMoney, parseMoney } from '../../domain/pricing/money';
import { MRR_MONTHS } from '../../projections/read-models/revenue-reports/mrr-movements';
import { REVENUE_DOCUMENTS, REVENUE_MONTHS } from '../../projections/read-models/revenue-reports/invoiced-revenue';
import { memoryContext } from '../../projections/engine/replay';
import type { Doc } from '../../infra/read-store/port';
import type { StoredEvent } from '../../infra/event-store/port';
import type { Projection } from '../../projections/engine/projection';
import { testMetadata } from '../support/events';
import { revenueReportsProjection } from '../../projections/read-models/revenue-reports/revenue-reports';
import { type GivenEvent, projectionSpec } from '../support/projection-spec';
import { organisationSettings } from '../support/organisation-fixtures';
import { created, ended, unitsChanged } from '../support/recurring-events';

const spec = projectionSpec(revenueReportsProjection);

const organisationCreated = (timezone = 'Europe/London'): GivenEvent => ({
  type: 'OrganisationCreated',
  data: { organisationId: 'org_1', livemode: true, liveOrganisationId: null, settings: { ...organisationSettings, timezone } },
});
const subscriptionCreated = (overrides: Parameters<typeof created>[0] = {}): GivenEvent => ({ type: 'SubscriptionCreated', data: created(overrides) });
const happened = (event: { type: string; data: unknown }, at: string): GivenEvent => ({ ...event, metadata: { businessTime: at } });

/** A month's document: its figures that are not 0 (a document leaves those out). */
const mrrMonth = (month: string, currency: string, movements: Partial<Record<'new' | 'expansion' | 'contraction' | 'churn' | 'reactivation', string>>, active: number) => ({
  id: `org_1/${currency}/${month}`,
  _organisation: 'org_1',
  currency,
  month,
  ...movements,
  ...(active === 0 ? {} : { active_change: active }),
});

const line = (revenueType: InvoiceLine['revenueType'], chargeAmount: string, effectiveDate: string | null = null): InvoiceLine => ({
  lineId: `il_${revenueType}_${chargeAmount}`,
  type: revenueType === 'usage' ? 'usage' : 'subscription',
  revenueType,
  meterId: null,
  usageQuantity: null,
  name: 'Seats',
  description: null,
  units: null,
  quantity: '1',
  unitAmount: chargeAmount,
  amount: chargeAmount,
  discountAmount: '0.0000',
  chargeAmount,
  effectiveDate,
  account: 'revenue',
});
const invoiceRaised = (invoiceId: string, invoiceDate: string, lines: InvoiceLine[], currency = 'GBP'): GivenEvent => ({
  type: 'InvoiceRaised',
  data: { invoiceId, organisationId: 'org_1', customerId: 'cus_1', subscriptionId: 'sub_1', currency, reference: null, invoiceDate, dueDate: null, lines, subtotal: '0.0000' },
});
const creditNoteRaised = (creditNoteId: string, invoiceId: string, date: string, lines: { amount: string; effectiveDate: string }[]): GivenEvent => ({
  type: 'CreditNoteRaised',
  data: {
    creditNoteId,
    organisationId: 'org_1',
    customerId: 'cus_1',
    subscriptionId: 'sub_1',
    invoiceId,
    currency: 'GBP',
    reference: null,
    creditNoteDate: date,
    lines: lines.map((l, i) => ({ lineId: `cnl_${i}`, name: 'Seats', description: null, ...l })),
    subtotal: formatMoney(lines.reduce((sum, l) => sum + parseMoney(l.amount), 0n)),
  },
});
const revenueMonth = (month: string, amounts: Partial<Record<'new_subscription' | 'expansion' | 'renewal' | 'usage' | 'credits', string>>, currency = 'GBP') => ({
  id: `org_1/${currency}/${month}`,
  _organisation: 'org_1',
  currency,
  month,
  ...amounts,
});

describe('the revenue reports projection: MRR movements', () => {
  it('keeps each month’s movements summed per currency: new, expansion, churn', () => {
    // sub_1: 5 × 10.0000 from 15 Jan; 8 seats from 10 Feb (+30.0000); ended 5 Mar (−80.0000).
    // sub_2: in euros, 2 × 10.0000 = 20.0000 from 20 Jan.
    return spec
      .given([
        organisationCreated(),
        subscriptionCreated(),
        subscriptionCreated({ subscriptionId: 'sub_2', currency: 'EUR', units: 2, startDate: '2026-01-20' }),
        happened(unitsChanged(8, '2026-02-10', '2026-02-15'), '2026-02-10T09:00:00.000Z'),
        happened(ended('2026-03-05'), '2026-03-05T09:00:00.000Z'),
      ])
      .then(MRR_MONTHS, [
        mrrMonth('2026-01', 'GBP', { new: '50.0000' }, 1),
        mrrMonth('2026-01', 'EUR', { new: '20.0000' }, 1),
        mrrMonth('2026-02', 'GBP', { expansion: '30.0000' }, 0),
        mrrMonth('2026-03', 'GBP', { churn: '80.0000' }, -1),
      ]);
  });

  it('takes a changed movement out of its month: a start moved past an end leaves nothing', () =>
    // Ended on 20 Jan, before the month's end: the January new and the February churn it first held go.
    spec
      .given([organisationCreated(), subscriptionCreated(), happened(ended('2026-01-20'), '2026-01-20T09:00:00.000Z')])
      .then(MRR_MONTHS, []));

  it('moves every subscription to its months of a new organisation timezone', () =>
    // From 1 March in London (00:00 UTC): February's end in London, 28 Feb 19:00 — still February — in New York;
    // from 1 March 05:00 UTC in New York's own: March in London, February's end in New York.
    spec
      .given([
        organisationCreated('Europe/London'),
        subscriptionCreated({ timezone: 'America/New_York', startDate: '2026-03-01' }),
        { type: 'OrganisationSettingsChanged', data: { organisationId: 'org_1', changes: { timezone: 'America/New_York' } } },
      ])
      .then(MRR_MONTHS, [mrrMonth('2026-02', 'GBP', { new: '50.0000' }, 1)]));

  it('empties what a sandbox reset removes', () =>
    spec
      .given([organisationCreated(), subscriptionCreated(), { type: 'SandboxReset', data: { organisationId: 'org_1', generation: 1, copy: { settings: true, catalogue: true, customers: true, subscriptions: false } } }])
      .then(MRR_MONTHS, []));
});

describe('the revenue reports projection: invoiced revenue', () => {
  const periodTwo = '2026-02-15T00:00:00.000Z';
  it('sums each month’s lines by type, credit notes reversing the type of the line that billed their period', () =>
    spec
      .given([
        organisationCreated(),
        subscriptionCreated(),
        invoiceRaised('inv_1', '2026-01-15T10:00:00.000Z', [line('new_subscription', '50.0000', '2026-01-15T00:00:00.000Z'), line('new_subscription', '20.0000')]),
        invoiceRaised('inv_2', '2026-02-08T10:00:00.000Z', [line('renewal', '50.0000', periodTwo)]),
        invoiceRaised('inv_3', '2026-02-16T10:00:00.000Z', [line('usage', '4.5005')]),
        // A decrease on 20 Jan (first period) and the next period's difference (the renewal invoice's): 2.2581 new_subscription, 10.0000 renewal.
        creditNoteRaised('cn_1', 'inv_2', '2026-02-09T10:00:00.000Z', [
          { amount: '2.2581', effectiveDate: '2026-02-09T00:00:00.000Z' },
          { amount: '10.0000', effectiveDate: periodTwo },
        ]),
        invoiceRaised('inv_4', '2026-02-10T10:00:00.000Z', [line('expansion', '7.0000')], 'EUR'),
        { type: 'InvoiceRemoved', data: { invoiceId: 'inv_4', status: 'voided' } },
      ])
      .then(REVENUE_MONTHS, [
        revenueMonth('2026-01', { new_subscription: '70.0000' }),
        // 50.0000 renewal − 10.0000 = 40.0000; −2.2581 new_subscription; 4.5005 usage; 12.2581 credited.
        revenueMonth('2026-02', { new_subscription: '-2.2581', renewal: '40.0000', usage: '4.5005', credits: '12.2581' }),
      ]));

  it('follows an amended renewal invoice and counts a voided one zero', () =>
    spec
      .given([
        organisationCreated(),
        invoiceRaised('inv_2', '2026-02-08T10:00:00.000Z', [line('renewal', '50.0000', periodTwo)]),
        { type: 'InvoiceLinesAmended', data: { invoiceId: 'inv_2', changeId: 'chg_1', lines: [line('renewal', '70.0000', periodTwo), line('expansion', '6.7742')], subtotal: '76.7742', total: null } },
        invoiceRaised('inv_5', '2026-03-08T10:00:00.000Z', [line('renewal', '70.0000')]),
        { type: 'InvoiceStatusObserved', data: { invoiceId: 'inv_5', status: 'deleted', total: '70.0000', amountPaid: '0.0000', creditNoteAmount: '0.0000', sent: false, updatedAt: 'x' } },
      ])
      .then(REVENUE_MONTHS, [revenueMonth('2026-02', { renewal: '70.0000', expansion: '6.7742' })]));

  it('dates documents in the organisation’s timezone', () =>
    // 31 Jan 23:30 UTC is already 1 Feb in Paris.
    spec
      .given([organisationCreated('Europe/Paris'), invoiceRaised('inv_1', '2026-01-31T23:30:00.000Z', [line('new_subscription', '50.0000')])])
      .then(REVENUE_MONTHS, [revenueMonth('2026-02', { new_subscription: '50.0000' })]));
});

describe('the revenue reports projection over documents version 1 wrote', () => {
  const projection: Projection = revenueReportsProjection;
  // While version 2 is rebuilt beside it, the live generation follows the log with version 2's code.
  const asFirstVersion = (doc: Doc): Doc => {
    const { adds, ...rest } = doc as Doc & { adds: Record<string, string> };
    const revenue = Object.fromEntries(['new_subscription', 'expansion', 'renewal', 'usage'].map((type) => [type, adds[type] ?? '0.0000']));
    return { ...rest, revenue, credits: adds.credits ?? '0.0000' };
  };
  const applied = async (context: ReturnType<typeof memoryContext>, events: readonly GivenEvent[], from: number) => {
    for (const [i, event] of events.entries()) {
      const stored: StoredEvent = { id: `evt_${from + i}`, type: event.type, version: 1, data: event.data, metadata: testMetadata(event.metadata), streamId: 'spec', revision: from + i, position: BigInt(from + i + 1) };
      if (projection.handles.includes(event.type)) await projection.apply(stored, context);
    }
  };

  it('takes out of its month what such a document added when it is voided or amended', async () => {
    const context = memoryContext();
    await applied(context, [organisationCreated(), invoiceRaised('inv_1', '2026-01-15T10:00:00.000Z', [line('new_subscription', '50.0000')]), invoiceRaised('inv_2', '2026-01-16T10:00:00.000Z', [line('renewal', '50.0000')])], 0);
    for (const doc of context.documents(REVENUE_DOCUMENTS)) context.put(REVENUE_DOCUMENTS, asFirstVersion(doc));
    await applied(
      context,
      [
        { type: 'InvoiceRemoved', data: { invoiceId: 'inv_1', status: 'voided' } },
        { type: 'InvoiceLinesAmended', data: { invoiceId: 'inv_2', changeId: 'chg_1', lines: [line('renewal', '70.0000')], subtotal: '70.0000', total: null } },
      ],
      3,
    );
    expect(context.documents(REVENUE_MONTHS)).toEqual([revenueMonth('2026-01', { renewal: '70.0000' })]);
  });
});
