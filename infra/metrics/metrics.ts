import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * The process's facts for Prometheus (`prom-client`), each counted in the one place it is decided:
 * a fact is the process's, however many services a test runs in it. Labels hold bounded values
 * only (route patterns, event types, outcomes), never an id. What is sampled when scraped (lags,
 * queue depths, due steps) belongs to a running service: see `api/operations/metrics.ts`.
 */
export const processMetrics = new Registry();

/** Observed by the one HTTP middleware (`api/middleware/request-metrics.ts`), labelled with the matched route's pattern. */
export const httpRequestDuration = new Histogram({
  name: 'billing_http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [processMetrics],
});

/** Counted where commands append (`commands/handle.ts`), once the append has committed. */
export const eventsAppended = new Counter({
  name: 'billing_events_appended_total',
  help: 'Events appended to the log, by type',
  labelNames: ['type'] as const,
  registers: [processMetrics],
});

/** Counted where a push job's outcome is decided (`workers/accounting-sync.ts`). */
export const accountingPushes = new Counter({
  name: 'billing_accounting_pushes_total',
  help: 'Pushes of invoices and credit notes to the accounting system, by outcome',
  labelNames: ['document', 'outcome'] as const,
  registers: [processMetrics],
});

/** Counted where a delivery attempt's outcome is decided (`workers/webhooks.ts`). */
export const webhookDeliveries = new Counter({
  name: 'billing_webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome',
  labelNames: ['outcome'] as const,
  registers: [processMetrics],
});

/** Counted where a usage batch's outcomes are final (`commands/usage/record-usage.ts`). */
export const usageEvents = new Counter({
  name: 'billing_usage_events_total',
  help: 'Usage events reported, by outcome',
  labelNames: ['outcome'] as const,
  registers: [processMetrics],
});

let defaultsCollected = false;

/** prom-client's process and Node.js metrics, begun by the first service that serves `/metrics` (they sample the event loop). */
export const collectProcessDefaults = (): void => {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: processMetrics });
};
