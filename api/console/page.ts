import type { ErrorRequestHandler, Request, Response, Router } from 'express';
import { ApiError } from '../errors';
import { toApiError } from '../middleware/error-handler';
import type { Logger } from '../../infra/logger';
import type { FormState } from './format';
import { type Page, renderPage } from './render';
import { ForeignOrigin } from './security';

/** Builds a page; `form` is the command refused on it, if any, to show beside its form. */
export type PageLoader = (req: Request, form: FormState | null) => Promise<Page>;

/** What a command did: a sentence for the next page (after a redirect), or what to show on this answer alone (a secret shown once). */
export type Done = Readonly<{ notice: string; redirect: string }> | Readonly<{ show: Record<string, unknown> }>;

export const page = (router: Router, path: string, load: PageLoader): void => {
  router.get(path, async (req: Request, res: Response) => renderPage(req, res, 200, await load(req, null)));
};

/**
 * A form's POST: the command runs through the same handlers as the admin API. Done, the page says
 * what it did; refused, the page is shown again with the API's message beside the form and what
 * was typed still in it (the refusal's status), nothing changed.
 */
export const command = (router: Router, path: string, form: string, load: PageLoader, run: (req: Request) => Promise<Done>): void => {
  router.post(path, async (req: Request, res: Response) => {
    let done: Done;
    try {
      done = await run(req);
    } catch (error) {
      const refusal = toApiError(error);
      if (!refusal || (refusal.status === 404 && refusal.param !== undefined && ['org', 'id'].includes(refusal.param))) throw error;
      const values = { ...(req.body as Record<string, unknown>) };
      delete values._csrf;
      renderPage(req, res, refusal.status, await load(req, { form, error: refusal.message, values }));
      return;
    }
    if ('show' in done) {
      renderPage(req, res, 200, await load(req, null), done.show);
      return;
    }
    req.session.notice = done.notice;
    res.redirect(303, done.redirect);
  });
};

/** Where a 404 page sends the reader back to: the organisation's page when the path names one. */
const backLink = (req: Request): { href: string; label: string } => {
  const org = /^\/organisations\/([^/]+)\/./.exec(req.path)?.[1];
  return org ? { href: `/console/organisations/${org}`, label: 'Back to the organisation' } : { href: '/console/organisations', label: 'Back to organisations' };
};

/** A missing object is a 404 page with a link back; a refused write a 403 page; anything else a 500 page, never a stack. */
export const consoleErrors =
  (logger: Logger): ErrorRequestHandler =>
  (error: unknown, req, res, _next) => {
    const csrfRefused = (error as { code?: unknown }).code === 'EBADCSRFTOKEN';
    const refusal =
      error instanceof ForeignOrigin || csrfRefused
        ? new ApiError(403, 'permission_error', csrfRefused ? 'csrf_token_invalid' : 'foreign_origin', csrfRefused ? 'The form has expired or did not come from the console: reload the page and try again.' : (error as ForeignOrigin).message)
        : toApiError(error);
    if (!refusal) logger.error({ err: error, requestId: req.requestId, path: req.originalUrl }, 'console page failed');
    const status = refusal?.status ?? 500;
    const title = status === 404 ? 'Not found' : status === 403 ? 'Refused' : status >= 500 ? 'Something went wrong' : 'Refused';
    renderPage(req, res, status, {
      view: 'error',
      title,
      data: { message: refusal?.message ?? 'The console could not show this page. The error is in the service’s log.', back: backLink(req), requestId: req.requestId },
    });
  };
