import { z } from 'zod';

const optionalUrl = z.string().url().optional();

const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]+$/, 'must be an IP address or a host name, e.g. 127.0.0.1 or 0.0.0.0')
    .default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  EVENTSTORE_URL: z.string().regex(/^(esdb|kurrentdb|kdb)(\+discover)?:\/\//, 'must be an esdb:// connection string').optional(),
  MONGO_URL: z.string().regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// connection string').optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  ACCOUNTING_URL: optionalUrl,
  /** How often the status poller asks the accounting system for changed documents. */
  ACCOUNTING_POLL_SECONDS: z.coerce.number().positive().default(60),
  /** How often the scheduler looks for due starts, renewals and ends (it also runs at start, catching up). */
  SCHEDULER_INTERVAL_SECONDS: z.coerce.number().positive().default(60),
  /** Shifts the real-time clock by this many days (tests stop the service across a renewal date). Never set in production. */
  WALL_CLOCK_OFFSET_DAYS: z.coerce.number().int().default(0),
  /**
   * How long a request that raised an invoice or credit note waits for the accounting sync worker's
   * push before answering; past it the document is answered `pending` and the worker finishes it.
   */
  ACCOUNTING_PUSH_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(3_000),
  /** Pushes to the accounting system at once per process (the client keeps 16 sockets); lower it for a system with a tighter concurrency limit. */
  ACCOUNTING_PUSH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(16),
  /** `true` also accepts and delivers to http://127.0.0.1:<port> and http://localhost:<port> endpoints (tests, local development). */
  WEBHOOK_ALLOW_LOOPBACK: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  /** Comma-separated seconds between webhook delivery attempts; the decisions page's schedule when unset. */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, 'must be comma-separated seconds')
    .transform((value) => value.split(',').map(Number))
    .optional(),
  /**
   * Threads a rebuild on the embedded stores splits its replay across, by read model (1: none, on
   * the service's loop). Unset: one a core but one, as a split pays only with a core to spare.
   */
  REBUILD_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  /** A projection further behind the log than this many events makes `/health/ready` answer 503. */
  READY_MAX_LAG_EVENTS: z.coerce.number().int().min(0).default(10_000),
  /** Bearer token `/metrics` takes; unset, `/metrics` answers callers on loopback only. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** How long a stop lets requests in flight finish before it closes their connections. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(3600).default(25),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof configSchema>;

/** Every environment variable the service reads. */
export const CONFIG_VARIABLES = Object.keys(configSchema.shape) as readonly (keyof Config)[];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the environment once at start; a bad value is a one-line error naming the variable. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = configSchema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`invalid ${variable}=${JSON.stringify(env[variable] ?? '')}: ${issue.message}`);
  }
  return result.data;
};
