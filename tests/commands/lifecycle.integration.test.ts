import { changeUnits } from '../../commands/subscription/change-units';
import { endSubscription } from '../../commands/subscription/end-subscription';
import { restoreSubscription } from '../../commands/subscription/restore-subscription';
import { customerStream } from '../../domain/customer/events';
import { invoiceStream } from '../../domain/invoice/events';
import { organisationStream } from '../../domain/organisation/events';
import { planStream } from '../../domain/plan/events';
import type { DomainEvent } from '../../domain/shared/decider';
import { subscriptionStream } from '../../domain/subscription/events';
import type { AccountingSystem } from '../../infra/accounting/port';
import { derivedId } from '../../infra/ids';
import { handlerSpec, specCaller } from '../support/handler-spec';
import { organisationSettings } from '../support/organisation-fixtures';
import { seatsPlan, subscriptionCreatedData } from '../support/subscription-fixtures';

/** No accounting system is connected in these specs: asking it anything fails the test. */
const noAccounting = new Proxy({} as AccountingSystem, {
  get: (_target, name) => {
    throw new Error(`the accounting system was asked for ${String(name)}`);
  },
});

const context = { organisationId: 'org_1', apiKeyId: 'key_1', idempotencyKey: 'k1' };
const organisationCreated = { type: 'OrganisationCreated', data: { organisationId: 'org_1', livemode: true, liveOrganisationId: null, settings: organisationSettings } };
const planCreated = { type: 'PlanCreated', data: seatsPlan({ minimumUnits: 1 }) };
const customerImported = {
  type: 'CustomerImported',
  data: { customerId: 'cus_1', organisationId: 'org_1', code: 'C1', name: 'One', firstName: null, lastName: null, email: null, accountingContactId: null, source: 'admin_import' },
};
const subscriptionCreated = {
  type: 'SubscriptionCreated',
  data: subscriptionCreatedData({ timezone: 'Europe/London', startDate: '2025-12-15', currentPeriodStart: '2025-12-15', renewalDate: '2026-01-15', firstInvoiceId: null }),
};
const renewalInvoice = {
  invoiceId: 'inv_renewal',
  organisationId: 'org_1',
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  currency: 'GBP',
  reference: null,
  invoiceDate: '2025-12-30T00:00:00.000Z',
  dueDate: '2026-01-13T00:00:00.000Z',
  lines: [],
  subtotal: '50.0000',
};
const given = (subscription: DomainEvent[], invoice: DomainEvent[]) => ({
  [organisationStream('org_1')]: [organisationCreated],
  [planStream('plan_1')]: [planCreated],
  [customerStream('cus_1')]: [customerImported],
  [subscriptionStream('sub_1')]: [subscriptionCreated, ...subscription],
  [invoiceStream('inv_renewal')]: [{ type: 'InvoiceRaised', data: renewalInvoice }, ...invoice],
});
const renewalRaised = { type: 'SubscriptionRenewalInvoiceRaised', data: { subscriptionId: 'sub_1', invoiceId: 'inv_renewal', periodStart: '2026-01-15' } };

describe('lifecycle handlers: given streams, when a command, then new events', () => {
  it('a prorated increase records the change, then raises its expansion invoice (the accounting sync worker pushes it)', async () => {
    const request = { units: 8, prorate: true, prorationBehaviour: null, effectiveDate: '2026-01-05', document: null };
    const changeId = derivedId('request', 'key_1', 'k1', 'sub_1', 'units', JSON.stringify(request));
    const invoiceId = derivedId('invoice', 'sub_1', changeId);
    const now = '2026-01-02T09:00:00.000Z';
    // 5 → 8 at 10.0000 a seat from 5 January: 10 of the 31 days from 15 December to 15 January.
    // 30.0000 × 10 / 31 = 9.677419… → 9.6774
    await handlerSpec({ now })
      .given(given([], []))
      .when((deps) => changeUnits({ ...deps, accounting: noAccounting }, specCaller, context, 'sub_1', request))
      .then({
        [subscriptionStream('sub_1')]: [
          {
            type: 'SubscriptionUnitsChanged',
            data: {
              subscriptionId: 'sub_1',
              changeId,
              changedAt: now,
              previousUnits: 5,
              units: 8,
              prorate: true,
              prorationBehaviour: 'charge_immediately',
              effectiveDate: '2026-01-05',
              document: null,
              periodStart: '2025-12-15',
              renewalDate: '2026-01-15',
              periodUnits: 8,
              proration: { daysLeft: 10, daysInPeriod: 31, numerator: '3000000', amount: '9.6774' },
              invoiceId,
              creditNoteId: null,
              creditedInvoiceId: null,
              renewalAdjustment: null,
              nextPeriod: null,
            },
          },
        ],
        [invoiceStream(invoiceId)]: [
          {
            type: 'InvoiceRaised',
            data: {
              invoiceId,
              organisationId: 'org_1',
              customerId: 'cus_1',
              subscriptionId: 'sub_1',
              currency: 'GBP',
              reference: null,
              invoiceDate: now,
              dueDate: '2026-01-16T09:00:00.000Z',
              lines: [
                {
                  lineId: derivedId('invoiceLine', invoiceId, '0'),
                  type: 'subscription',
                  revenueType: 'expansion',
                  meterId: null,
                  usageQuantity: null,
                  name: 'Seats',
                  description: '5 → 8 units from 2026-01-05 to 2026-01-15 (10/31 days)',
                  units: 8,
                  quantity: '1',
                  unitAmount: '9.6774',
                  amount: '9.6774',
                  discountAmount: '0.0000',
                  chargeAmount: '9.6774',
                  effectiveDate: '2026-01-05T00:00:00.000Z',
                  account: 'revenue',
                },
              ],
              subtotal: '9.6774',
            },
          },
        ],
      });
  });

  it('ending removes the renewal invoice first (one never pushed is deleted here, not in the accounting system), then ends', async () => {
    const operationId = derivedId('request', 'key_1', 'k1', 'sub_1', 'end', JSON.stringify({ when: 'now', deleteUnsentInvoices: false, voidApprovedInvoices: false, invoiceUsageNow: false }));
    await handlerSpec({ now: '2026-01-01T12:00:00.000Z' })
      .given(given([renewalRaised], []))
      .when((deps) =>
        endSubscription({ ...deps, accounting: noAccounting }, specCaller, context, 'sub_1', {
          when: 'now',
          deleteUnsentInvoices: false,
          voidApprovedInvoices: false,
          invoiceUsageNow: false,
        }),
      )
      .then({
        [invoiceStream('inv_renewal')]: [{ type: 'InvoiceRemoved', data: { invoiceId: 'inv_renewal', status: 'deleted' } }],
        [subscriptionStream('sub_1')]: [
          {
            type: 'SubscriptionEnded',
            data: {
              subscriptionId: 'sub_1',
              operationId,
              endedAt: '2026-01-01T12:00:00.000Z',
              endDate: '2026-01-01',
              invoiceUsageNow: false,
              removals: [{ invoiceId: 'inv_renewal', action: 'delete' }],
              nextPeriodCredits: [],
              carriedCharges: null,
            },
          },
        ],
      });
  });

  it('restoring raises again the renewal invoice that ending removed (the accounting sync worker pushes it)', async () => {
    const operationId = derivedId('request', 'key_1', 'k1', 'sub_1', 'restore', '{}');
    const invoiceId = derivedId('invoice', 'inv_renewal', 'restored', operationId);
    const ended = {
      type: 'SubscriptionEnded',
      data: { subscriptionId: 'sub_1', operationId: 'op_end', endedAt: '2026-01-01T00:00:00.000Z', endDate: '2026-01-01', invoiceUsageNow: false, removals: [{ invoiceId: 'inv_renewal', action: 'delete' }] },
    };
    await handlerSpec({ now: '2026-01-02T09:00:00.000Z' })
      .given(given([renewalRaised, ended], [{ type: 'InvoiceRemoved', data: { invoiceId: 'inv_renewal', status: 'deleted' } }]))
      .when((deps) => restoreSubscription(deps, specCaller, context, 'sub_1'))
      .then({
        [subscriptionStream('sub_1')]: [
          { type: 'SubscriptionRestored', data: { subscriptionId: 'sub_1', operationId, from: 'ended', status: 'active', renewalInvoiceId: invoiceId, replacesInvoiceId: 'inv_renewal', nextPeriodInvoice: null } },
        ],
        [invoiceStream(invoiceId)]: [
          { type: 'InvoiceRaised', data: { ...renewalInvoice, invoiceId, invoiceDate: '2026-01-02T09:00:00.000Z', dueDate: '2026-01-16T09:00:00.000Z' } },
        ],
      });
  });

  it('refuses to restore a subscription that is running', async () => {
    await handlerSpec()
      .given(given([], []))
      .when((deps) => restoreSubscription(deps, specCaller, context, 'sub_1'))
      .thenRefuses('invalid_state');
  });
});
