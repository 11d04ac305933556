import type { Express } from 'express';

type Layer = {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
};

/** Every `METHOD /path` the Express app actually serves, walking nested routers. */
export const servedRoutes = (app: Express): string[] => {
  const found: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        // OPTIONS is registered beside every route only to refuse it (api/route.ts): it serves nothing.
        for (const method of Object.keys(layer.route.methods).filter((name) => name !== 'options')) {
          found.push(`${method.toUpperCase()} ${layer.route.path.replace(/:(\w+)/g, '{$1}')}`);
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found.sort();
};
