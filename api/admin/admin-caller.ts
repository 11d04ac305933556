import type { Request } from 'express';
import type { Caller } from '../../commands/plumbing/metadata';

export const adminCaller = (req: Request): Caller => ({ actor: { type: 'admin' }, requestId: req.requestId });
