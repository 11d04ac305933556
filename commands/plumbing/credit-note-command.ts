import { creditNoteDecider } from '../../domain/credit-note/decider';
import { creditNoteStream } from '../../domain/credit-note/events';
import { boundHandler } from './bound-handler';

export const creditNoteCommand = boundHandler(creditNoteDecider, creditNoteStream);
