import { addDaysToInstant } from '../pricing/calendar';
import type { InvoiceEvent } from './events';

/** A removed renewal invoice raised again by a restore: the same lines under new ids, dated now. */
export const reRaisedInvoice = (
  removed: InvoiceEvent<'InvoiceRaised'>['data'],
  input: { invoiceId: string; lineIds: readonly string[]; now: string; paymentTermsDays: number },
): InvoiceEvent<'InvoiceRaised'>['data'] => ({
  ...removed,
  invoiceId: input.invoiceId,
  invoiceDate: input.now,
  dueDate: addDaysToInstant(input.now, input.paymentTermsDays),
  lines: removed.lines.map((line, i) => ({ ...line, lineId: input.lineIds[i]! })),
});
