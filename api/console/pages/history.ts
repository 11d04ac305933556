import type { Request } from 'express';
import { objectHistoryPage } from '../../../projections/queries/history';
import type { ApiDeps } from '../../deps';
import { toEventObject } from '../../schemas/audit';

/** Events a history shows at once; more are a link away. */
const HISTORY_PAGE = 100;

/** An object's history, oldest first, a page at a time from `history_after` (a revision). */
export const historyOf = async (deps: ApiDeps, organisationId: string, objectId: string, req: Request) => {
  const after = typeof req.query.history_after === 'string' && /^\d{1,15}$/.test(req.query.history_after) ? Number(req.query.history_after) : undefined;
  const found = await objectHistoryPage(deps.store, organisationId, objectId, after, HISTORY_PAGE);
  if (!found || found === 'unknown_revision') return { events: [], hasMore: false };
  return { events: found.events.map(toEventObject), hasMore: found.hasMore };
};
