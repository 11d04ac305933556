import { randomUUID } from 'node:crypto';
import type { EventMetadata, NewEvent } from '../../infra/event-store/port';

export const testMetadata = (overrides: Partial<EventMetadata> = {}): EventMetadata => ({
  organisationId: 'org_test',
  livemode: true,
  businessTime: '2026-01-01T00:00:00.000Z',
  recordedTime: '2026-01-01T00:00:00.000Z',
  actor: { type: 'admin' },
  requestId: null,
  causationId: null,
  correlationId: null,
  ...overrides,
});

export const testEvent = (type: string, data: unknown = {}): NewEvent => ({
  id: randomUUID(),
  type,
  version: 1,
  data,
  metadata: testMetadata(),
});

/** An invoice as raised, for specs of the invoice's decider and read model. */
export const raisedInvoiceData = (invoiceDate: string, subtotal: string) => ({
  invoiceId: 'inv_1',
  organisationId: 'org_1',
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  currency: 'GBP',
  reference: null,
  invoiceDate,
  dueDate: null,
  lines: [],
  subtotal,
});

/** A credit note as raised against `inv_1`, one line crediting the whole `subtotal`, for specs of its decider. */
export const raisedCreditNoteData = (creditNoteDate: string, subtotal: string) => ({
  creditNoteId: 'cn_1',
  organisationId: 'org_1',
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  invoiceId: 'inv_1',
  currency: 'GBP',
  reference: null,
  creditNoteDate,
  lines: [{ lineId: 'il_1', name: 'Seats', description: null, amount: subtotal, effectiveDate: creditNoteDate }],
  subtotal,
});
