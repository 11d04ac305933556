import { randomUUID } from 'node:crypto';
import type { CommandDeps } from '../../commands/plumbing/deps';
import type { Lookups } from '../../commands/plumbing/lookups';
import type { Caller } from '../../commands/plumbing/metadata';
import { eventCatalogue } from '../../domain/event-catalogue';
import type { DomainEvent } from '../../domain/shared/decider';
import { DomainError } from '../../domain/shared/domain-error';
import type { UsageIdHolder } from '../../domain/usage/state';
import { fixedClock } from '../../infra/clock/clock';
import { realClocks } from '../../infra/clock/clocks';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { testMetadata } from './events';

export const specCaller: Caller = { actor: { type: 'admin' }, requestId: 'req_spec' };

/** What a handler under spec may use: a fresh SQLite log, a fixed clock, and lookups answering the given counts. */
export type SpecDeps = CommandDeps & Readonly<{ lookups: Lookups }>;

/** Lookups answering the given values (nothing stored, zero counts by default). */
export const lookupsOf = (given: Partial<Record<keyof Lookups, unknown>>): Lookups => ({
  liveSubscriptionCount: () => Promise.resolve((given.liveSubscriptionCount as number | undefined) ?? 0),
  customerCount: () => Promise.resolve((given.customerCount as number | undefined) ?? 0),
  metersDefined: () => Promise.resolve((given.metersDefined as boolean | undefined) ?? false),
  customerWithContact: () => Promise.resolve((given.customerWithContact as string | null | undefined) ?? null),
  usageEventHolders: () =>
    Promise.resolve({ holders: (given.usageEventHolders as ReadonlyMap<string, readonly UsageIdHolder[]> | undefined) ?? new Map<string, UsageIdHolder[]>(), through: 0n, readThrough: -1 }),
  webhookEndpointCount: () => Promise.resolve((given.webhookEndpointCount as number | undefined) ?? 0),
  copyable: () => Promise.resolve({ meters: [], plans: [], charges: [], customers: [], subscriptions: [] }),
});

/**
 * given(streams) → when(handler call) → then(new events by stream) / thenRefuses(code, param), as
 * Emmett's command handler specs: the given events are appended to a fresh log, the handler runs
 * against it, and exactly the expected events must have been appended after them (nothing on a refusal).
 */
export const handlerSpec = (options: { now?: string; lookups?: Partial<Record<keyof Lookups, unknown>> } = {}) => ({
  given: (streams: Readonly<Record<string, readonly DomainEvent[]>>) => {
    const run = async (when: (deps: SpecDeps) => Promise<unknown>) => {
      const store = new SqliteEventStore(openDatabase(':memory:'));
      for (const [streamId, events] of Object.entries(streams)) {
        await store.append(streamId, events.map((e) => ({ id: randomUUID(), type: e.type, version: eventCatalogue.get(e.type)?.version ?? 1, data: e.data, metadata: testMetadata() })), 'no_stream');
      }
      const head = await store.headPosition();
      const clocks = realClocks(fixedClock(new Date(options.now ?? '2026-01-01T00:00:00.000Z')));
      const outcome = await when({ store, clocks, lookups: lookupsOf(options.lookups ?? {}) }).then(
        () => null,
        (error: unknown) => error,
      );
      const appended = await store.readAll(head, 1000);
      await store.close();
      const byStream: Record<string, DomainEvent[]> = {};
      for (const event of appended) (byStream[event.streamId] ??= []).push({ type: event.type, data: event.data });
      return { outcome, byStream };
    };
    return {
      when: (call: (deps: SpecDeps) => Promise<unknown>) => ({
        then: async (expected: Readonly<Record<string, readonly DomainEvent[]>>) => {
          const { outcome, byStream } = await run(call);
          expect(outcome).toBeNull();
          expect(byStream).toEqual(expected);
        },
        thenRefuses: async (code: string, param?: string) => {
          const { outcome, byStream } = await run(call);
          expect(outcome).toBeInstanceOf(DomainError);
          expect((outcome as DomainError).code).toBe(code);
          if (param !== undefined) expect((outcome as DomainError).param).toBe(param);
          expect(byStream).toEqual({});
        },
      }),
    };
  },
});
