import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type StoredEvent,
  WrongExpectedRevision,
} from './port';
import { semaphore } from './semaphore';

type StoredMetadata = EventMetadata & { version: number };

const isSystem = (event: { streamId: string; type: string }): boolean =>
  event.streamId.startsWith('$') || event.type.startsWith('$');

const toExpected = (expected: ExpectedRevision): AppendExpectedRevision =>
  expected === 'no_stream' ? NO_STREAM : expected === 'any' ? ANY : BigInt(expected);

/**
 * The production event log. The port's global position is the event's prepare position in $all:
 * unique per event and increasing in $all order (events of one append share a commit position but
 * not a prepare position), so reading resumes after it without repeating or skipping an event.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly listeners = new Set<() => void>();
  private subscription: AllStreamSubscription | null = null;
  // The Node client fails under unbounded concurrent appends; bound them.
  private readonly limitAppends = semaphore(16);

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  private toStored(resolved: ResolvedEvent | AllStreamResolvedEvent): StoredEvent | null {
    const event = resolved.event;
    if (!event || !event.isJson || isSystem(event)) return null;
    const { version, ...metadata } = event.metadata as unknown as StoredMetadata;
    return {
      id: event.id,
      streamId: event.streamId,
      revision: Number(event.revision),
      position: event.position?.prepare ?? resolved.commitPosition ?? 0n,
      type: event.type,
      version,
      data: event.data,
      metadata,
    };
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    try {
      const result = await this.limitAppends(() =>
        this.client.appendToStream(
          streamId,
          events.map((event) =>
            jsonEvent({
              id: event.id,
              type: event.type,
              data: event.data as Record<string, unknown>,
              metadata: { ...event.metadata, version: event.version },
            }),
          ),
          { expectedRevision: toExpected(expected) },
        ),
      );
      // The append's own position is its last event's; read it back to report the prepare position.
      const last = await this.readStream(streamId, Number(result.nextExpectedRevision));
      return {
        nextExpectedRevision: Number(result.nextExpectedRevision),
        position: last[0]?.position ?? result.position?.prepare ?? 0n,
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion;
        throw new WrongExpectedRevision(streamId, expected, typeof actual === 'bigint' ? Number(actual) : 'no_stream');
      }
      throw error;
    }
  }

  async readStream(streamId: string, fromRevision = 0): Promise<StoredEvent[]> {
    const events: StoredEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, {
        fromRevision: BigInt(fromRevision),
        direction: FORWARDS,
      })) {
        const stored = this.toStored(resolved);
        if (stored) events.push(stored);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(after: bigint, limit: number): Promise<StoredEvent[]> {
    const events: StoredEvent[] = [];
    let from = after;
    // System events are skipped, so a page may need more than one read.
    for (;;) {
      let read = 0;
      for await (const resolved of this.client.readAll({
        fromPosition: from === 0n ? START : { commit: from, prepare: from },
        direction: FORWARDS,
        maxCount: limit + 1,
      })) {
        read++;
        const position = resolved.event?.position?.prepare ?? 0n;
        if (position <= from) continue;
        from = position;
        const stored = this.toStored(resolved);
        if (stored) events.push(stored);
        if (events.length === limit) return events;
      }
      if (read <= 1) return events;
    }
  }

  async headPosition(): Promise<bigint> {
    for await (const resolved of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1000 })) {
      const stored = this.toStored(resolved);
      if (stored) return stored.position;
    }
    return 0n;
  }

  onAppended(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.subscription) this.subscribe();
    return () => this.listeners.delete(listener);
  }

  private subscribe(): void {
    const subscription = this.client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
    subscription.on('data', () => {
      for (const listener of this.listeners) listener();
    });
    subscription.on('error', () => {
      // A dropped subscription is re-opened; the projection runner's polling covers the gap.
      this.subscription = null;
      if (this.listeners.size > 0) setTimeout(() => this.subscribe(), 1000).unref();
    });
    this.subscription = subscription;
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.subscription?.unsubscribe();
    this.subscription = null;
    await this.client.dispose();
  }
}
