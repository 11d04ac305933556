import { nextPeriodCreditNote } from '../../domain/credit-note/next-period-credit-note';
import type { InvoiceEvent } from '../../domain/invoice/events';
import { reBilledNextPeriodInvoice } from '../../domain/invoice/next-period-invoice';
import type { NextPeriodCredit } from '../../domain/subscription/lifecycle-events';
import type { ExistingSubscription } from '../../domain/subscription/lifecycle';
import { derivedId } from '../../infra/ids';
import { creditNoteCommand } from '../plumbing/credit-note-command';
import type { CommandDeps } from '../plumbing/deps';
import { invoiceCommand } from '../plumbing/invoice-command';
import type { Caller, OrganisationRef } from '../plumbing/metadata';
import { latestPosition } from '../plumbing/positions';

type Context = Readonly<{ caller: Caller; ref: OrganisationRef; now: string }>;

/** The id of the credit note an end raises for one invoice's next-period lines. */
export const nextPeriodCreditNoteId = (operationId: string, invoiceId: string): string => derivedId('creditNote', invoiceId, 'next-period', operationId);

const raisedInvoice = async (deps: CommandDeps, invoiceId: string): Promise<InvoiceEvent<'InvoiceRaised'>['data']> => {
  const { state } = await invoiceCommand.load(deps.store, invoiceId);
  if (state.status === 'none') throw new Error(`invoice ${invoiceId} is not in the log`);
  return state.invoice;
};

/**
 * Raises the credit notes an end decided on for the next period's lines (a retry raises only those
 * missing: each id is derived from the end), and answers the latest position written.
 */
export const creditNextPeriod = async (deps: CommandDeps, context: Context, state: ExistingSubscription, credits: readonly NextPeriodCredit[]): Promise<bigint> => {
  let position = 0n;
  for (const credit of credits) {
    const raised = nextPeriodCreditNote({
      subscription: state.subscription,
      invoice: await raisedInvoice(deps, credit.invoiceId),
      creditNoteId: credit.creditNoteId,
      lineIds: (i) => derivedId('invoiceLine', credit.creditNoteId, String(i)),
      now: context.now,
    });
    const recorded = await creditNoteCommand(deps, credit.creditNoteId, { type: 'RaiseCreditNote', ...raised }, context.caller, context.ref);
    position = latestPosition(position, recorded.position);
  }
  return position;
};

/** Raises the invoice a restore bills the credited next-period lines again on. */
export const rebillNextPeriod = async (
  deps: CommandDeps,
  context: Context & { paymentTermsDays: number },
  state: ExistingSubscription,
  rebilled: Readonly<{ invoiceId: string; rebills: readonly NextPeriodCredit[] }>,
): Promise<bigint> => {
  const { invoiceId } = rebilled;
  const raised = reBilledNextPeriodInvoice({
    subscription: state.subscription,
    credited: await Promise.all(rebilled.rebills.map((credit) => raisedInvoice(deps, credit.invoiceId))),
    invoiceId,
    lineIds: (i) => derivedId('invoiceLine', invoiceId, String(i)),
    now: context.now,
    paymentTermsDays: context.paymentTermsDays,
  });
  return (await invoiceCommand(deps, invoiceId, { type: 'RaiseInvoice', ...raised }, context.caller, context.ref)).position;
};
