import { awaitSync } from '../../commands/accounting/await-sync';
import { invoiceStream } from '../../domain/invoice/events';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { raisedInvoiceData, testEvent } from '../support/events';

const synced = { invoiceId: 'inv_1', accountingInvoiceId: 'x_1', number: 'INV-1', status: 'draft', total: '59.9900', amountPaid: '0.0000', creditNoteAmount: '0.0000', sent: false };

/** An embedded log whose stream loads are counted by stream. */
const countingStore = () => {
  const store = new SqliteEventStore(openDatabase(':memory:'));
  const loads = new Map<string, number>();
  const count = (streamId: string) => loads.set(streamId, (loads.get(streamId) ?? 0) + 1);
  const readStream = store.readStream.bind(store);
  const readStreamToFold = store.readStreamToFold.bind(store);
  store.readStream = (streamId, fromRevision) => {
    count(streamId);
    return readStream(streamId, fromRevision);
  };
  store.readStreamToFold = (streamId, fromRevision) => {
    count(streamId);
    return readStreamToFold(streamId, fromRevision);
  };
  return { store, loads: (streamId: string) => loads.get(streamId) ?? 0 };
};

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('awaitSync: a request waiting for its documents’ push', () => {
  it('is woken only by appends to its own documents’ streams, and answers the position of the outcome it waited for', async () => {
    const { store, loads } = countingStore();
    const stream = invoiceStream('inv_1');
    await store.append(stream, [testEvent('InvoiceRaised', raisedInvoiceData('2026-03-15T10:00:00.000Z', '49.9900'))], 'no_stream');
    const waiting = awaitSync(store, 0n, { invoiceIds: ['inv_1', null] }, 20_000);
    await turns(3);
    const beforeOthers = loads(stream);
    expect(beforeOthers).toBe(1);
    // Fifty appends to other streams, each in its own loop turn (before, any of them woke the wait, which loaded the invoice again).
    for (let i = 0; i < 50; i++) {
      await store.append(`invoice-other_${i}`, [testEvent('InvoiceRaised', raisedInvoiceData('2026-03-15T10:00:00.000Z', '1.0000'))], 'no_stream');
      await turns(2);
    }
    // A poll for other processes' appends may have looked once or twice meanwhile, never once per append.
    expect(loads(stream) - beforeOthers).toBeLessThan(5);
    const outcome = await store.append(stream, [testEvent('InvoiceSynced', synced)], 0);
    await expect(waiting).resolves.toBe(outcome.position);
  });

  it('answers at once, without waiting, when the outcome is already recorded, and the later of its own and the request’s position', async () => {
    const { store } = countingStore();
    const stream = invoiceStream('inv_1');
    await store.append(stream, [testEvent('InvoiceRaised', raisedInvoiceData('2026-03-15T10:00:00.000Z', '49.9900'))], 'no_stream');
    const outcome = await store.append(stream, [testEvent('InvoiceSynced', synced)], 0);
    await expect(awaitSync(store, 0n, { invoiceIds: ['inv_1'] }, 60_000)).resolves.toBe(outcome.position);
    await expect(awaitSync(store, outcome.position + 7n, { invoiceIds: ['inv_1'] }, 60_000)).resolves.toBe(outcome.position + 7n);
  });
});
