import { resetScope } from '../../domain/organisation/rules';
import { derivedId, type IdKind } from '../../infra/ids';

/**
 * An object an organisation names by a code has its id derived from the organisation and the code
 * (and the sandbox's reset generation): one object per code whoever asks twice, and its stream
 * refuses a second creation.
 */
const idByCode =
  (kind: IdKind) =>
  (organisationId: string, resetGeneration: number, code: string): string =>
    derivedId(kind, organisationId, ...resetScope(resetGeneration), code);

export const meterIdFor = idByCode('meter');
export const planIdFor = idByCode('plan');
export const chargeIdFor = idByCode('charge');
export const customerIdFor = idByCode('customer');
