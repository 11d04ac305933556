import { decodeEvent } from '../domain/decode-event';
import type { SandboxReset } from '../domain/organisation/events';
import type { UsageRecorded } from '../domain/usage/events';
import { coalescedRuns } from '../infra/coalesced-runs';
import type { EventStore, StoredEvent } from '../infra/event-store/port';
import type { Logger } from '../infra/logger';
import { FingerprintTable, fingerprintOf } from './fingerprint-table';

/** Events read from the log at a time. */
const BATCH = 2000;

const keyOf = (organisationId: string, eventId: string) => `${organisationId}:${eventId}`;

/**
 * Which subscriptions hold each usage event id of an organisation (an id is unique per
 * organisation): the commands' lookup for ids reused across subscriptions. Kept in memory, as
 * 64-bit fingerprints of the organisation and the id beside a subscription number, built from the
 * log at start and following it since. A read model document per id cost a b-tree insert and a
 * page written at a random place for every id (random ids ran at 25-30k events/s, 68-72k without).
 *
 * A fingerprint match names a subscription that may hold the id: the subscription's usage stream
 * says for sure. A sandbox reset frees its organisation's ids (the subscriptions before it hold none).
 */
export class UsageEventIdIndex {
  private readonly table = new FingerprintTable();
  /** Each live subscription's number; the number's subscription and organisation. */
  private readonly numbers = new Map<string, number>();
  private readonly subscriptions: string[] = [];
  private readonly organisations: string[] = [];
  /** Numbers of the subscriptions a sandbox reset emptied. */
  private readonly reset = new Set<number>();
  private readonly byOrganisation = new Map<string, number[]>();
  private position = 0n;
  private started: Promise<void> | null = null;
  private stopped = false;
  private scheduled = false;
  private unsubscribe: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly runs = coalescedRuns<void>(
    () => this.follow(),
    (error) => this.logger.error({ err: error }, 'usage event id index: reading the log failed; retrying on the next append or poll'),
    () => this.stopped,
  );

  constructor(
    private readonly store: EventStore,
    private readonly logger: Logger,
    private readonly pollMs = 1000,
  ) {}

  /** Reads the whole log (once; later calls wait for that read), then follows it. */
  start(): Promise<void> {
    this.started ??= this.open().catch((error: unknown) => {
      this.started = null;
      throw error;
    });
    return this.started;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    await this.runs.current();
  }

  /**
   * The subscriptions that may hold each of the ids (every one that does, and rarely one that does
   * not), and the log position the answer includes everything up to. Waits for the start's read.
   */
  async subscriptionsHolding(organisationId: string, eventIds: readonly string[]): Promise<Readonly<{ candidates: ReadonlyMap<string, readonly string[]>; through: bigint }>> {
    await this.start();
    const candidates = new Map<string, string[]>();
    for (const eventId of eventIds) {
      for (const number of this.table.valuesOf(fingerprintOf(keyOf(organisationId, eventId)))) {
        if (this.reset.has(number) || this.organisations[number] !== organisationId) continue;
        const holders = candidates.get(eventId);
        if (holders) holders.push(this.subscriptions[number]!);
        else candidates.set(eventId, [this.subscriptions[number]!]);
      }
    }
    return { candidates, through: this.position };
  }

  private async open(): Promise<void> {
    const started = performance.now();
    await this.follow();
    this.logger.info(
      { ids: this.table.size, subscriptions: this.numbers.size, position: String(this.position), ms: Math.round(performance.now() - started) },
      'usage event id index read from the log',
    );
    this.unsubscribe = this.store.onAppended(() => this.followThisTurn());
    // Polling catches appends made by other processes.
    this.timer = setInterval(() => void this.runs(), this.pollMs);
    this.timer.unref();
    // What was appended between the last read and the subscription.
    void this.runs();
  }

  /** One read at the end of the loop turn for every append committed in it. */
  private followThisTurn(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.runs();
    });
  }

  private async follow(): Promise<void> {
    for (;;) {
      const batch = await this.store.readAll(this.position, BATCH);
      for (const event of batch) {
        this.apply(event);
        this.position = event.position;
      }
      if (batch.length < BATCH || this.stopped) return;
    }
  }

  private apply(event: StoredEvent): void {
    if (event.type === 'UsageRecorded') {
      const { data } = decodeEvent(event) as unknown as UsageRecorded;
      const number = this.numberOf(data.subscriptionId, data.organisationId);
      for (const group of data.groups) for (const usage of group.events) this.table.add(fingerprintOf(keyOf(data.organisationId, usage.eventId)), number);
    } else if (event.type === 'SandboxReset') {
      const { organisationId } = (decodeEvent(event) as unknown as SandboxReset).data;
      for (const number of this.byOrganisation.get(organisationId) ?? []) {
        this.reset.add(number);
        this.numbers.delete(this.subscriptions[number]!);
      }
      this.byOrganisation.delete(organisationId);
    }
  }

  private numberOf(subscriptionId: string, organisationId: string): number {
    let number = this.numbers.get(subscriptionId);
    if (number === undefined) {
      number = this.subscriptions.length;
      this.subscriptions.push(subscriptionId);
      this.organisations.push(organisationId);
      this.numbers.set(subscriptionId, number);
      const numbers = this.byOrganisation.get(organisationId);
      if (numbers) numbers.push(number);
      else this.byOrganisation.set(organisationId, [number]);
    }
    return number;
  }
}
