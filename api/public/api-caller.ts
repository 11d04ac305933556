import type { Request } from 'express';
import type { Caller } from '../../commands/plumbing/metadata';

export const apiCaller = (req: Request): Caller => ({ actor: { type: 'api_key', id: req.auth!.apiKey.id }, requestId: req.requestId });
