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
  type JSONType,
  type Position,
  type ReadStreamOptions,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { createLogger, type Logger } from '../logger';
import {
  type AppendedListener,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type FoldedEvent,
  type NewEvent,
  type StoredEvent,
  WrongExpectedRevision,
} from './port';
import { semaphore } from './semaphore';

export type EventStoreDbOptions = Readonly<{
  /** Appends in flight at once; the Node client fails under unbounded concurrent appends. */
  maxConcurrentAppends?: number;
  logger?: Pick<Logger, 'warn'>;
  /** Wait before re-opening a dropped $all subscription. */
  resubscribeDelayMs?: number;
}>;

type StoredMetadata = EventMetadata & { version: number };

const isSystem = (event: { streamId: string; type: string }): boolean =>
  event.streamId.startsWith('$') || event.type.startsWith('$');

const toExpected = (expected: ExpectedRevision): AppendExpectedRevision =>
  expected === 'no_stream' ? NO_STREAM : expected === 'any' ? ANY : BigInt(expected);

/**
 * The port's position is the event's commit position in $all. Every event appended over gRPC is
 * written as its own self-committed prepare record, and the server places it in $all at
 * (commit, prepare) = (its log position, its log position): the events of one multi-event append
 * do not share a commit position, each has its own, unique and increasing in $all order, and
 * `{ commit: p, prepare: p }` is exactly that event's place, where readAll resumes. The commit
 * position is also the one to trust: older servers report every event of a multi-event append
 * with the append's first log position as its prepare position. (Only events of legacy TCP
 * explicit transactions share a commit position; this store never writes them.)
 */
const portPosition = (position: Position | undefined, what: string): bigint => {
  if (!position) throw new Error(`EventStoreDB reported no position for ${what} (the client documents positions on stream reads from server 22.6)`);
  return position.commit;
};

const toStored = (resolved: ResolvedEvent | AllStreamResolvedEvent): StoredEvent | null => {
  const event = resolved.event;
  if (!event || !event.isJson || isSystem(event)) return null;
  const { version, ...metadata } = event.metadata as unknown as StoredMetadata;
  return {
    id: event.id,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: portPosition(event.position, `${event.streamId}@${event.revision}`),
    type: event.type,
    version,
    data: event.data,
    metadata,
  };
};

/** The production event log in EventStoreDB / KurrentDB. */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly limitAppends: <T>(operation: () => Promise<T>) => Promise<T>;
  private readonly logger: Pick<Logger, 'warn'>;
  private readonly resubscribeDelayMs: number;
  private readonly listeners = new Set<AppendedListener>();
  private subscription: AllStreamSubscription | null = null;
  private resubscribeTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(connectionString: string, options: EventStoreDbOptions = {}) {
    this.client = EventStoreDBClient.connectionString(connectionString);
    this.limitAppends = semaphore(options.maxConcurrentAppends ?? 16);
    this.logger = options.logger ?? createLogger('warn').child({ component: 'eventstoredb' });
    this.resubscribeDelayMs = options.resubscribeDelayMs ?? 1000;
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return this.checkEmptyAppend(streamId, expected);
    let nextExpectedRevision: number;
    try {
      const result = await this.limitAppends(() =>
        this.client.appendToStream(
          streamId,
          events.map((event) =>
            jsonEvent({
              id: event.id,
              type: event.type,
              data: event.data as JSONType,
              metadata: { ...event.metadata, version: event.version },
            }),
          ),
          { expectedRevision: toExpected(expected) },
        ),
      );
      nextExpectedRevision = Number(result.nextExpectedRevision);
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion;
        throw new WrongExpectedRevision(streamId, expected, typeof actual === 'bigint' ? Number(actual) : 'no_stream');
      }
      throw error;
    }
    // The append reply carries one position for the whole write (and none for an idempotent
    // replay), so the last event's own position is read back.
    const [last] = await this.read(streamId, { fromRevision: BigInt(nextExpectedRevision), direction: FORWARDS, maxCount: 1 });
    if (!last) throw new Error(`stream ${streamId}: appended revision ${nextExpectedRevision} cannot be read back`);
    this.notify([streamId]);
    return { nextExpectedRevision, position: last.position };
  }

  /** Nothing to write: only the expectation is checked, as the SQLite store does. */
  private async checkEmptyAppend(streamId: string, expected: ExpectedRevision): Promise<AppendResult> {
    const [last] = await this.read(streamId, { fromRevision: END, direction: BACKWARDS, maxCount: 1 });
    const actual = last ? last.revision : 'no_stream';
    if (expected === 'no_stream' ? actual !== 'no_stream' : expected !== 'any' && expected !== actual) {
      throw new WrongExpectedRevision(streamId, expected, actual);
    }
    return { nextExpectedRevision: last ? last.revision : -1, position: 0n };
  }

  readStream(streamId: string, fromRevision = 0, limit?: number): Promise<StoredEvent[]> {
    return this.read(streamId, { fromRevision: BigInt(fromRevision), direction: FORWARDS, ...(limit === undefined ? {} : { maxCount: BigInt(limit) }) });
  }

  /** EventStoreDB filters a stream's read by nothing but revision: the whole stream is read, and filtered here. */
  async readStreamOfTypes(streamId: string, types: readonly string[]): Promise<StoredEvent[]> {
    const wanted = new Set(types);
    return (await this.readStream(streamId)).filter((event) => wanted.has(event.type));
  }

  /** The client reads metadata with every event anyway: the full events serve. */
  readStreamToFold(streamId: string, fromRevision = 0, limit?: number): Promise<FoldedEvent[]> {
    return this.readStream(streamId, fromRevision, limit);
  }

  private async read(streamId: string, options: ReadStreamOptions): Promise<StoredEvent[]> {
    const events: StoredEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, options)) {
        const stored = toStored(resolved);
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
    if (limit <= 0) return events;
    // A read from a position includes the event at it, so one extra is asked for and skipped.
    const pageSize = limit + 1;
    let from: bigint | null = after === 0n ? null : after;
    // System events are skipped, so filling a page may take more than one read.
    for (;;) {
      let read = 0;
      for await (const resolved of this.client.readAll({
        fromPosition: from === null ? START : { commit: from, prepare: from },
        direction: FORWARDS,
        maxCount: pageSize,
      })) {
        read++;
        const position: bigint | undefined = resolved.event?.position?.commit ?? resolved.commitPosition;
        if (position === undefined || (from !== null && position <= from)) continue;
        from = position;
        const stored = toStored(resolved);
        if (!stored) continue;
        events.push(stored);
        if (events.length === limit) return events;
      }
      if (read < pageSize) return events;
    }
  }

  async headPosition(): Promise<bigint> {
    const pageSize = 100;
    let before: bigint | null = null;
    for (;;) {
      let read = 0;
      for await (const resolved of this.client.readAll({
        fromPosition: before === null ? END : { commit: before, prepare: before },
        direction: BACKWARDS,
        maxCount: pageSize,
      })) {
        read++;
        const position: bigint | undefined = resolved.event?.position?.commit ?? resolved.commitPosition;
        if (position === undefined || (before !== null && position >= before)) continue;
        before = position;
        const stored = toStored(resolved);
        if (stored) return stored.position;
      }
      if (read < pageSize) return 0n;
    }
  }

  onAppended(listener: AppendedListener): () => void {
    this.listeners.add(listener);
    if (!this.subscription && !this.resubscribeTimer && !this.closed) this.subscribe();
    return () => this.listeners.delete(listener);
  }

  /**
   * One filtered $all subscription wakes listeners for appends made by any process; appends made
   * here wake them directly too, so none waits on the subscription's round trip.
   */
  private subscribe(): void {
    const subscription = this.client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
    this.subscription = subscription;
    const dropped = (error?: Error): void => {
      if (this.subscription !== subscription) return;
      this.subscription = null;
      void subscription.unsubscribe().catch(() => undefined);
      if (this.closed) return;
      this.logger.warn({ err: error }, 'EventStoreDB $all subscription dropped; resubscribing');
      this.resubscribeTimer = setTimeout(() => {
        this.resubscribeTimer = null;
        if (!this.closed) this.subscribe();
      }, this.resubscribeDelayMs);
      this.resubscribeTimer.unref();
    };
    // Appends made while the subscription was down (or before the server saw it) are not replayed
    // from END, so a (re)confirmed subscription wakes listeners to catch up.
    subscription.on('confirmation', () => this.notify(null));
    subscription.on('data', (resolved: AllStreamResolvedEvent) => this.notify(resolved.event ? [resolved.event.streamId] : null));
    subscription.on('error', dropped);
    subscription.on('close', () => dropped());
  }

  private notify(streamIds: readonly string[] | null): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(streamIds);
      } catch (error) {
        this.logger.warn({ err: error }, 'onAppended listener threw');
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    if (this.resubscribeTimer) clearTimeout(this.resubscribeTimer);
    this.resubscribeTimer = null;
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.unsubscribe().catch(() => undefined);
    await this.client.dispose();
  }
}
