import type { CommandDeps } from '../commands/plumbing/deps';
import type { Lookups } from '../commands/plumbing/lookups';
import type { Caller } from '../commands/plumbing/metadata';
import type { AccountingSystem } from '../infra/accounting/port';
import type { IdempotencyStore } from '../infra/idempotency/port';
import type { Logger } from '../infra/logger';
import type { ProjectionRunner } from '../projections/engine/runner';
import type { RateLimiter } from '../infra/rate-limit/port';
import type { ReadStore } from '../infra/read-store/port';
import type { Resolver } from '../infra/webhooks/resolver';
import type { WorkersStatus } from './schemas/workers';

/** What the HTTP layer needs: commands' dependencies, the read side, and read-your-writes. */
export type ApiDeps = CommandDeps &
  Readonly<{
    readStore: ReadStore;
    lookups: Lookups;
    logger: Logger;
    adminToken: string;
    rateLimiter: RateLimiter;
    idempotency: IdempotencyStore;
    accounting: AccountingSystem;
    /** Resolves webhook endpoint hosts, so the address rules see what DNS answers. */
    resolveHost: Resolver;
    /** WEBHOOK_ALLOW_LOOPBACK: http://127.0.0.1:<port> and http://localhost:<port> endpoints accepted. */
    allowLoopback: boolean;
    /** The workers of this process, for operators (null where none run). */
    workersStatus: (() => Promise<WorkersStatus>) | null;
    /** ACCOUNTING_PUSH_WAIT_MS: how long a request waits for the push of a document it raised. */
    accountingPushWaitMs: number;
    /** Resolves once every read model includes the position (bounded wait). */
    waitForProjections: (position: bigint) => Promise<boolean>;
    /** The projections' positions and blue/green rebuilds. */
    projections: Pick<ProjectionRunner, 'projections' | 'status' | 'startRebuild' | 'rebuildStatus'>;
    /** A sandbox's test clock advance (stepping through what falls due), wired by the process. */
    testClock: Readonly<{ advance(organisationId: string, date: string, caller: Caller): Promise<TestClockResult> }>;
  }>;

export type TestClockResult = Readonly<{ object: 'test_clock'; frozen_time: string; status: 'ready' }>;
