import type { Clocks } from '../infra/clock/clocks';
import type { AccountingSystem } from '../infra/accounting/port';
import type { EventStore } from '../infra/event-store/port';
import type { AppendOutbox } from '../infra/jobs/append-outbox';
import type { JobQueues } from '../infra/jobs/port';
import type { Leases } from '../infra/lease/port';
import type { Logger } from '../infra/logger';
import type { ReadStore } from '../infra/read-store/port';

/** What the workers use: the log, the read side (checkpoints, endpoints), the queues and the accounting system. */
export type WorkerDeps = Readonly<{
  store: EventStore;
  readStore: ReadStore;
  clocks: Clocks;
  queues: JobQueues;
  /** Each outbox and the poller run in one process at a time, under a lease held by this instance. */
  leases: Leases;
  instanceId: string;
  accounting: AccountingSystem;
  logger: Logger;
  /** Where the log and the queues share one database (the embedded profile): jobs added inside the appends that call for them. */
  appendOutbox?: AppendOutbox;
  /** Resolves once every read model includes the position (bounded wait; false when it timed out). */
  waitForProjections: (position: bigint) => Promise<boolean>;
}>;
