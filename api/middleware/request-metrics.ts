import type { RequestHandler } from 'express';
import { httpRequestDuration } from '../../infra/metrics/metrics';

/** What a request answered before any route matched (a refused key, an unknown path) is labelled: never its raw path. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Every request's duration into `billing_http_request_duration_seconds`, labelled with the pattern
 * of the route that matched it (`/v1/subscriptions/:id`), so a label never holds an id.
 */
export const requestMetrics = (): RequestHandler => (req, res, next) => {
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    const pattern = (req.route as { path?: unknown } | undefined)?.path;
    httpRequestDuration.observe(
      { method: req.method, route: typeof pattern === 'string' ? pattern : UNMATCHED_ROUTE, status: String(res.statusCode) },
      Number(process.hrtime.bigint() - started) / 1e9,
    );
  });
  next();
};
