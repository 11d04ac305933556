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
      summary: 'List credit notes',
      description: `
        The organisation's credit notes, newest first, paged with \`limit\` and \`starting_after\`, each with
        \`allocations\`: the invoices its credit was applied to. Narrow it by \`subscription\`, \`customer\`
        (ids) or \`status\` (comma-separated). A credit note is raised when a unit change lowers what is
        payable; its amounts are positive numbers (a \`subtotal\` of \`20.0000\` credits 20).

        **Errors:** \`422 invalid_parameter\` names a filter or paging parameter that is not valid.
      `,
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
    {
      ...base,
      path: '/v1/credit_notes/{id}',
      operationId: 'getCreditNote',
      summary: 'Retrieve a credit note',
      description: 'A credit note by its id (`cn_…`), with its lines, its copy in the accounting system and where its credit was applied.\n\n**Errors:** `404 credit_note_not_found` when the organisation has no credit note with that id.',
      response: creditNoteObject,
    },
    async ({ req, params }) => ({
      body: publicView(await findOwned<CreditNoteDoc>(deps, CREDIT_NOTES, req.auth!.organisation.id, params.id!, 'credit_note_not_found')),
    }),
  );
};
