import express, { type NextFunction, type Request, type Response, type Router } from 'express';

/** A literal path segment: nothing the router's path syntax would read as a parameter, wildcard or group. */
const LITERAL = /^[A-Za-z0-9_.~-]+$/;

/** The router matches literal text regardless of ASCII case (its patterns' `i` flag, without `u`): so does the key. */
const asciiLower = (text: string): string => text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());

/** The first two segments of a path, as a key (`/v1/subscriptions/sub_1` → `v1/subscriptions`). */
const keyOf = (path: string): string | null => {
  const [empty, first, second] = path.split('/', 3);
  return empty === '' && first !== undefined && second !== undefined ? asciiLower(`${first}/${second}`) : null;
};

/**
 * `router`, with each request tried against only the routes whose first two path segments are its
 * own: the router tests every route in turn (a regular expression and a params object each), and a
 * `/v1` request went past every route declared before its own. A route can only match a request
 * whose segments equal its literal ones (ignoring ASCII case), so the routes of the request's key,
 * in their order, find the same first match the whole router would; a request no key names (or a
 * router with a route not of that form) goes through the whole router as before. Call it once every
 * route is declared. Its `stack` is the router's, for what walks the app's routes.
 */
export const dispatchBySegments = (router: Router) => {
  const whole = (req: Request, res: Response, next: NextFunction) => router(req, res, next);
  const groups = new Map<string, Router>();
  for (const layer of router.stack) {
    const path = (layer.route as { path?: unknown } | undefined)?.path;
    const segments = typeof path === 'string' ? path.split('/') : [];
    const key = segments.length >= 3 && LITERAL.test(segments[1]!) && LITERAL.test(segments[2]!) ? keyOf(path as string) : null;
    if (key === null) return Object.assign(whole, { stack: router.stack });
    let group = groups.get(key);
    if (!group) groups.set(key, (group = express.Router()));
    group.stack.push(layer);
  }
  return Object.assign(
    (req: Request, res: Response, next: NextFunction) => {
      const key = keyOf(req.path);
      const group = key === null ? undefined : groups.get(key);
      return group ? group(req, res, next) : router(req, res, next);
    },
    { stack: router.stack },
  );
};
