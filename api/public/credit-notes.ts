import type { Router } from 'express';
import { z } from 'zod';
import { CREDIT_NOTE_STATUSES, CREDIT_NOTES, type CreditNoteDoc } from '../../projections/read-models/credit-notes';
import type { ApiDeps } from '../deps';
import { findOwned } from '../find-owned';
import { csvEnum, listOf, listPage, listQuery, publicView } from '../paging';
import type { RouteRegistry } from '../route';
import { creditNoteObject } from '../schemas/credit-note';
import { publicRoute } from './public-route';

export const creditNoteRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const base = { tag: 'Credit notes', auth: 'api_key', status: 200, scope: 'credit_notes:read', method: 'get' } as const;

  publicRoute(
    router,
    registry,
    deps,
    {
      ...base,
      path: '/v1/credit_notes',
      operationId: 'listCreditNotes',
      summary: 'List credit notes, newest first, each with where its credit was applied',
      query: listQuery({
        subscription: z.string().min(1).optional(),
        customer: z.string().min(1).optional(),
        status: csvEnum(CREDIT_NOTE_STATUSES).optional(),
      }),
      response: listOf(creditNoteObject),
    },
    async ({ req, query }) => ({ body: await listPage(deps.readStore, CREDIT_NOTES, req.auth!.organisation.id, query) }),
  );

  publicRoute(
    router,
    registry,
    deps,
    { ...base, path: '/v1/credit_notes/{id}', operationId: 'getCreditNote', summary: 'Retrieve a credit note', response: creditNoteObject },
    async ({ req, params }) => ({
      body: publicView(await findOwned<CreditNoteDoc>(deps, CREDIT_NOTES, req.auth!.organisation.id, params.id!, 'credit_note_not_found')),
    }),
  );
};
