import { z } from 'zod';

/** What operators see of the background workers in this process and the queues they share. */
export const workersStatusObject = z
  .object({
    object: z.literal('workers'),
    queue_backend: z.enum(['sqlite', 'bullmq']),
    queues: z.array(
      z.object({
        name: z.string(),
        waiting: z.number().int(),
        delayed: z.number().int(),
        active: z.number().int(),
        failed: z.number().int(),
        /** How long the oldest waiting job has waited, in seconds; null when none waits. */
        oldest_job_age_seconds: z.number().nullable(),
        failed_jobs: z.array(z.object({ id: z.string(), error: z.string(), attempts: z.number().int(), failed_at: z.string() })),
      }),
    ),
    /** Each worker's outbox: how far it has followed the log. */
    followers: z.array(z.object({ name: z.string(), checkpoint: z.string(), head: z.string(), lag: z.number().int() })),
    /** This process instance, and which of the workers' leases it holds (the holder runs that worker). */
    instance_id: z.string(),
    leases: z.array(z.object({ name: z.string(), held: z.boolean() })),
    poller: z.object({
      interval_seconds: z.number(),
      last_poll_at: z.string().nullable(),
      lag_seconds: z.number().nullable(),
      last_error: z.string().nullable(),
    }),
    /** The scheduler's last run over every organisation, and the steps it has run since the process started. */
    scheduler: z.object({
      interval_seconds: z.number(),
      last_run_at: z.string().nullable(),
      steps_run: z.number().int(),
      last_error: z.string().nullable(),
    }),
  })
  .meta({ id: 'WorkersStatus' });

export type WorkersStatus = z.infer<typeof workersStatusObject>;
