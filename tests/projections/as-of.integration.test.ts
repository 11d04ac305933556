import { join } from 'node:path';
import fc from 'fast-check';
import { invoiceCommand } from '../../commands/plumbing/invoice-command';
import { subscriptionCommand } from '../../commands/plumbing/subscription-command';
import { firstInvoice } from '../../domain/invoice/first-invoice';
import { DomainError } from '../../domain/shared/domain-error';
import { fixedClock } from '../../infra/clock/clock';
import { realClocks } from '../../infra/clock/clocks';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { silentLogger } from '../../infra/logger';
import type { Doc } from '../../infra/read-store/port';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { subscriptionAsOf } from '../../projections/queries/as-of';
import { INVOICES, invoicesProjection } from '../../projections/read-models/invoices';
import { ProjectionRunner } from '../../projections/engine/runner';
import { SUBSCRIPTIONS, subscriptionsProjection } from '../../projections/read-models/subscriptions';
import { createSubscriptionCommand, openOrganisation, seatsPlan } from '../support/subscription-fixtures';
import { tempDir } from '../support/test-service';

/**
 * The read model and the as-of view are one implementation: random command sequences (create,
 * change units, end, restore, raise and push invoices) go through
 * the deciders into a real log, the runner keeps the read models after every command, and at the
 * end the as-of view at each of those instants must equal the read model as it then stood.
 */
describe('a subscription as of an instant', () => {
  const ORG = { id: 'org_1', livemode: true };
  const caller = { actor: { type: 'admin' as const }, requestId: 'req_1' };
  const subscriptionIds = ['sub_a', 'sub_b'];
  const invoiceIds = ['inv_1', 'inv_2', 'inv_3'];

  const step = fc.record({
    gapMs: fc.integer({ min: 1, max: 3 * 3_600_000 }),
    subscription: fc.constantFrom(...subscriptionIds),
    invoice: fc.constantFrom(...invoiceIds),
    command: fc.oneof(
      // Creations come first more often, so that most later commands find a subscription to act on.
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), units: fc.integer({ min: 1, max: 40 }), discount: fc.constantFrom('0.00', '10.00', '12.50') }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('change' as const), units: fc.integer({ min: 0, max: 40 }), amendable: fc.boolean() }) },
      fc.record({ kind: fc.constant('end' as const), when: fc.constantFrom('period_end' as const, 'now' as const) }),
      fc.record({ kind: fc.constant('restore' as const) }),
      fc.record({ kind: fc.constant('raise' as const) }),
      fc.record({ kind: fc.constant('sync' as const), total: fc.integer({ min: 0, max: 99_999 }), status: fc.constantFrom('draft' as const, 'approved' as const, 'paid' as const) }),
      fc.record({ kind: fc.constant('fail' as const), error: fc.string({ maxLength: 20 }) }),
    ),
  });

  it('equals the read model after every command, for any sequence of commands', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        const db = openDatabase(join(tempDir('as-of'), 'billing.sqlite'));
        const store = new SqliteEventStore(db);
        const runner = new ProjectionRunner(store, new SqliteReadStore(db), [subscriptionsProjection, invoicesProjection], silentLogger());
        const clock = fixedClock(new Date('2026-01-31T09:00:00.000Z'));
        const deps = { store, clocks: realClocks(clock) };
        await runner.init();
        const history: { at: Date; documents: Map<string, Doc | null> }[] = [];
        try {
          for (const [n, { gapMs, subscription, invoice, command }] of steps.entries()) {
            clock.advance(gapMs);
            const now = clock.now().toISOString();
            const invoiceId = `${invoice}_${subscription}`;
            try {
              if (command.kind === 'create') {
                const creation = createSubscriptionCommand({ units: command.units, discountPercent: command.discount }, { subscriptionId: subscription, firstInvoiceId: `inv_first_${subscription}`, now: clock.now().toISOString() });
                await subscriptionCommand(deps, subscription, creation, caller, ORG);
              } else if (command.kind === 'change') {
                const request = { units: command.units, prorate: false, prorationBehaviour: null, effectiveDate: null, document: null };
                const change = { type: 'ChangeUnits', changeId: `chg_${n}`, now, organisation: openOrganisation(), plan: seatsPlan(), invoiceId: `inv_c${n}`, creditNoteId: `cn_c${n}`, renewalInvoice: { standing: command.amendable ? 'draft' : 'approved', kept: 0n }, request } as const;
                await subscriptionCommand(deps, subscription, change, caller, ORG);
              } else if (command.kind === 'end') {
                const request = { when: command.when, deleteUnsentInvoices: false, voidApprovedInvoices: false, invoiceUsageNow: false };
                await subscriptionCommand(deps, subscription, { type: 'EndSubscription', operationId: `end_${n}`, now, today: now.slice(0, 10), organisation: openOrganisation(), invoices: [], nextPeriodCreditNoteIds: {}, carriedChargesInvoiceId: `inv_carried_${n}`, renewalInvoiceCarriesCharges: false, request }, caller, ORG);
              } else if (command.kind === 'restore') {
                const restore = { type: 'RestoreSubscription', operationId: `res_${n}`, organisationId: ORG.id, resetGeneration: 0, today: now.slice(0, 10), customerStatus: 'active', planStatus: 'active', reRaisedInvoiceId: `inv_r${n}`, nextPeriodInvoiceId: `inv_n${n}` } as const;
                await subscriptionCommand(deps, subscription, restore, caller, ORG);
              } else if (command.kind === 'raise') {
                const { state } = await subscriptionCommand.load(store, subscription);
                if (state.status === 'none') continue;
                const raised = firstInvoice({ subscription: state.subscription, lineIds: ['il_1'], now: clock.now().toISOString(), paymentTermsDays: 14 });
                await invoiceCommand(deps, invoiceId, { type: 'RaiseInvoice', ...raised, invoiceId }, caller, ORG);
              } else if (command.kind === 'sync') {
                const total = `${command.total}.0000`;
                const synced = { accountingInvoiceId: `acc_${invoiceId}`, number: `INV-${invoiceId}`, status: command.status, total, amountPaid: command.status === 'paid' ? total : '0.0000', creditNoteAmount: '0.0000', sent: false };
                await invoiceCommand(deps, invoiceId, { type: 'RecordInvoiceSynced', invoiceId, ...synced }, caller, ORG);
              } else {
                await invoiceCommand(deps, invoiceId, { type: 'RecordInvoiceSyncFailed', invoiceId, error: command.error }, caller, ORG);
              }
            } catch (error) {
              // A refusal (an invoice that was never raised) appends nothing; it is part of the sequence too.
              if (!(error instanceof DomainError)) throw error;
            }
            await runner.catchUp();
            const documents = new Map<string, Doc | null>();
            for (const id of subscriptionIds) {
              const doc = await runner.readStore.get(SUBSCRIPTIONS, id);
              const invoices = await runner.readStore.findAll(INVOICES, [{ field: 'subscription', eq: id }]);
              invoices.sort((a, b) => (a.created === b.created ? (a.id < b.id ? 1 : -1) : String(a.created) < String(b.created) ? 1 : -1));
              documents.set(id, doc && { ...doc, invoices, credit_notes: [] });
              // The command side's fold (the decider's evolve) agrees with the read model on where the subscription stands.
              expect(doc?.status ?? 'none').toBe((await subscriptionCommand.load(store, id)).state.status);
            }
            history.push({ at: clock.now(), documents });
          }
          for (const { at, documents } of history) {
            for (const id of subscriptionIds) {
              expect(await subscriptionAsOf(store, runner.readStore, ORG.id, id, at)).toEqual(documents.get(id));
            }
          }
          // Before anything was recorded, nothing existed.
          expect(await subscriptionAsOf(store, runner.readStore, ORG.id, 'sub_a', new Date('2026-01-31T09:00:00.000Z'))).toBeNull();
        } finally {
          db.close();
        }
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});
