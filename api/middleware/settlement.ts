import type { Response } from 'express';

/** What a request holding an idempotency lock must do before it answers: store its response, or release the key. */
export type Settlement = Readonly<{
  succeed(status: number, body: unknown): Promise<void>;
  fail(): Promise<void>;
}>;

export const settle = (res: Response, settlement: Settlement): void => {
  res.locals.idempotency = settlement;
};

/** Hooks the route helper and the error handler call before answering. */
export const settlementOf = (res: Response): Settlement | undefined => res.locals.idempotency as Settlement | undefined;
