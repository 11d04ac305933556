import type { Router } from 'express';
import type { ApiDeps } from '../../deps';
import { CREDIT_NOTE_READ, getObject } from '../../object-reads';
import { page } from '../page';
import { historyOf } from './history';
import { organisationOf } from './organisation';

export const creditNotePages = (router: Router, deps: ApiDeps): void => {
  page(router, '/organisations/:org/credit-notes/:id', async (req) => {
    const organisation = await organisationOf(deps, req);
    const creditNote = await getObject<Record<string, unknown>>(deps, CREDIT_NOTE_READ, organisation.id, req.params.id as string);
    const history = await historyOf(deps, organisation.id, creditNote.id as string, req);
    return { view: 'credit-note', title: `Credit note ${creditNote.id as string}`, organisation, data: { creditNote, history } };
  });
};
