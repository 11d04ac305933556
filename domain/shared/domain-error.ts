/** The family of a refused command; the API maps each to its status and error type (`accounting`: the accounting system refused or failed). */
export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'permission' | 'accounting';

/** A business rule said no. `code` and `param` are the API document's. */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
