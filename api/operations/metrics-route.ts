import type { Request, Router } from 'express';
import { Gauge, Registry } from 'prom-client';
import { collectProcessDefaults, processMetrics } from '../../infra/metrics/metrics';
import { presents } from '../bearer-token';
import { authenticationError, permissionError } from '../errors';
import type { RouteRegistry } from '../route';
import type { OperationsDeps } from './operations-deps';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * What this service's state shows when scraped, sampled from where it is kept: the projections'
 * checkpoints, the queues, the scheduler's last pass. The process's counted facts (`processMetrics`)
 * sit beside them.
 */
const sampledMetrics = (deps: OperationsDeps): Registry => {
  const registry = new Registry();
  new Gauge({
    name: 'billing_projection_lag_events',
    help: 'Events in the log a projection has not applied yet',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      for (const { name, events } of await deps.lagEvents(deps.maxLagEvents + 1)) this.set({ projection: name }, events);
    },
  });
  new Gauge({
    name: 'billing_jobs_waiting',
    help: 'Jobs due to run and not yet taken',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      for (const queue of deps.queues) this.set({ queue: queue.name }, (await queue.stats()).waiting);
    },
  });
  new Gauge({
    name: 'billing_jobs_oldest_age_seconds',
    help: 'How long the longest-waiting job due to run has waited (0 with none waiting)',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      for (const queue of deps.queues) this.set({ queue: queue.name }, ((await queue.oldestWaitMs()) ?? 0) / 1000);
    },
  });
  new Gauge({
    name: 'billing_scheduler_due_steps',
    help: 'Scheduled steps (starts, renewal invoices, renewals, ends, usage closes) due and not yet run, as the last pass left them',
    registers: [registry],
    collect() {
      this.set(deps.dueSteps() ?? 0);
    },
  });
  return registry;
};

/** METRICS_TOKEN as a Bearer token when set; without it, callers on this machine only. */
const refusal = (req: Request, token: string | null) => {
  if (token !== null) {
    return presents(req, token) ? null : authenticationError('invalid_metrics_token', '/metrics needs Authorization: Bearer <METRICS_TOKEN>.');
  }
  return LOOPBACK.test(req.socket.remoteAddress ?? '') ? null : permissionError('metrics_loopback_only', '/metrics answers only this machine while METRICS_TOKEN is unset.');
};

/** `GET /metrics` in Prometheus's text format (`prom-client`); declared as a route, answered as text. */
export const metricsRoute = (router: Router, registry: RouteRegistry, deps: OperationsDeps): void => {
  collectProcessDefaults();
  const metrics = Registry.merge([processMetrics, sampledMetrics(deps)]);
  registry.push({
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    summary: 'Prometheus metrics (text format)',
    description: 'Takes `METRICS_TOKEN` as a Bearer token; unset, answers callers on loopback only.',
    tag: 'Operations',
    auth: 'none',
    status: 200,
    response: null,
    errors: [401, 403],
  });
  router.get('/metrics', async (req, res) => {
    const refused = refusal(req, deps.metricsToken);
    if (refused) throw refused;
    const text = await metrics.metrics();
    // As prom-client names it (`res.send` would rewrite its parameters).
    res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' }).end(text);
  });
};
