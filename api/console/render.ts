import { join } from 'node:path';
import type { Request, Response } from 'express';
import { Eta } from 'eta';
import { projectRoot } from '../../infra/threads/compiled-script';
import type { OrganisationDoc } from '../../projections/read-models/organisations';
import { format } from './format';
import { csrf } from './security';
import { signedIn } from './session';

/**
 * Eta: small, maintained, precompiles each template once, and escapes every `<%= %>` (what a user
 * typed can never become markup). The templates are read from the sources (`api/console/views`),
 * which `npm start` runs beside.
 */
const eta = new Eta({ views: join(projectRoot(__dirname), 'api', 'console', 'views'), cache: true, autoEscape: true });

export type Page = Readonly<{
  view: string;
  /** The `<title>` and the page's first heading. */
  title: string;
  /** The organisation the page belongs to: its name in the navigation, and "Sandbox" / "Test data" marks. */
  organisation?: OrganisationDoc;
  data?: Record<string, unknown>;
}>;

/** The page's HTML, with what every page carries: the CSRF token, the notice left by the last command. */
export const renderPage = (req: Request, res: Response, status: number, page: Page, extra: Record<string, unknown> = {}): void => {
  const notice = req.session?.notice ?? null;
  if (notice) delete req.session.notice;
  const html = eta.render(page.view, {
    ...page.data,
    ...extra,
    title: page.title,
    organisation: page.organisation ?? null,
    signedIn: signedIn(req),
    csrfToken: req.session ? csrf.generateToken(req) : '',
    notice,
    f: format,
  });
  // Pages hold what the read models held and, once, a new secret: never kept by a cache or the back button.
  res.status(status).set('Cache-Control', 'no-store').type('html').send(html);
};
