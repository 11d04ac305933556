import { creditNoteDocument } from '../../projections/read-models/credit-notes';

/** The response object is the read model's document without its internal (`_`-prefixed) fields. */
export const creditNoteObject = creditNoteDocument.omit({ _organisation: true }).meta({ id: 'CreditNote' });
