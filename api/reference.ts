import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import express, { type RequestHandler, type Router } from 'express';

/**
 * The browsable API reference: Redoc's standalone bundle, served from the service's own
 * dependencies, renders the OpenAPI documents the service serves. Nothing on the pages comes from
 * another host, and the Content-Security-Policy says so to the browser. Redoc needs inline styles
 * (styled-components writes them), a search worker it starts from a blob: URL, and data: images.
 */
export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const REFERENCES = [
  { path: '/docs', document: '/v1/openapi.json', title: 'API reference', label: 'API (/v1)' },
  { path: '/docs/admin', document: '/admin/v1/openapi.json', title: 'Admin API reference', label: 'Admin API (/admin/v1)' },
] as const;

const REDOC_BUNDLE = join(dirname(require.resolve('redoc/package.json')), 'bundles', 'redoc.standalone.js');
/** The one thing Redoc 2 loads from another host: the logo of its sidebar's footer, from Redocly's CDN. */
const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

/**
 * The bundle with the logo's address replaced by an empty data: image, which Redoc then leaves out
 * (its footer's link stays). Read once, when first asked for; a bundle that no longer holds the
 * address exactly once is refused, so an upgrade is checked for what it loads before it is served.
 */
const redocBundle = (() => {
  let bundle: Buffer | null = null;
  return (): Buffer => {
    if (bundle) return bundle;
    const source = readFileSync(REDOC_BUNDLE, 'utf8');
    if (source.split(REDOC_LOGO).length !== 2) throw new Error(`${REDOC_BUNDLE} no longer holds ${REDOC_LOGO} once: check what it loads from other hosts`);
    bundle = Buffer.from(source.replace(REDOC_LOGO, 'data:,'));
    return bundle;
  };
})();

const STYLESHEET = `
body { margin: 0; }
nav.references { display: flex; gap: 1.5rem; padding: 0.6rem 1.25rem; background: #263238; font: 14px/1.4 system-ui, sans-serif; }
nav.references a { color: #cfd8dc; text-decoration: none; }
nav.references a[aria-current="page"] { color: #fff; font-weight: 600; }
`;

const escape = (text: string): string => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (current: (typeof REFERENCES)[number]): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(current.title)}: Subscription Billing Service</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/reference.css">
</head>
<body>
<nav class="references">${REFERENCES.map((r) => `<a href="${r.path}"${r === current ? ' aria-current="page"' : ''}>${escape(r.label)}</a>`).join('')}</nav>
<redoc spec-url="${current.document}" scroll-y-offset="nav.references" expand-responses="200,201" hide-hostname="true"></redoc>
<script src="/docs/redoc.standalone.js"></script>
</body>
</html>
`;

const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', REFERENCE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
};

/** Mounted at `/docs`: `GET /docs` (the public API) and `/docs/admin` (the operator API), with what they load. */
export const referenceRoutes = (): Router => {
  const router = express.Router({ caseSensitive: true, strict: true });
  router.use(securityHeaders);
  for (const reference of REFERENCES) {
    const html = page(reference);
    router.get(reference.path.replace(/^\/docs/, '') || '/', (_req, res) => {
      res.type('html').send(html);
    });
  }
  router.get('/reference.css', (_req, res) => {
    res.type('css').send(STYLESHEET);
  });
  router.get('/redoc.standalone.js', (_req, res) => {
    res.type('js').setHeader('Cache-Control', 'public, max-age=86400');
    res.send(redocBundle());
  });
  return router;
};
