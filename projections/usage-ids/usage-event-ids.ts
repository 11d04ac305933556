import { basename, dirname } from 'node:path';
import { decodeEvent } from '../../domain/decode-event';
import type { UsageIdHolder } from '../../domain/usage/state';
import type { EventStore, StoredEvent } from '../../infra/event-store/port';
import { type AppendsFollowed, followAppends } from '../../infra/follow-appends';
import type { Logger } from '../../infra/logger';
import { fingerprintOf } from '../../domain/shared/fingerprint';
import { FingerprintLevels, type FingerprintLevelsOptions } from './fingerprint-levels';
import { SandboxGenerations } from '../read-models/sandbox-generations';
import { UsageBatches } from './usage-batches';
import { readSnapshot, type UsageEventIdState, writeSnapshot } from './usage-event-id-snapshot';

/**
 * Events read from the log at a time. Few: a usage batch's event is about 5 KB of JSON, and what a
 * read holds is what each young-generation collection copies (1,000,000 ids read at start: about a
 * fifth faster than at 2,000).
 */
const BATCH = 100;

/** Ids the table in memory holds before they are written out (about 12 MB of table). */
const SEAL_IDS = 500_000;

const keyOf = (organisationId: string, eventId: string) => `${organisationId}:${eventId}`;

export type UsageEventIdIndexOptions = Readonly<{
  /** How often it reads the log for other processes' appends. */
  pollMs?: number;
  /**
   * Where it keeps a snapshot (the service: in its data directory, whichever the log), written at
   * stop and once the ids added since the last one reach `everyIds` or a quarter of those it held,
   * whichever is more (writing one costs what it holds); a start reads it and then the log after it.
   */
  snapshot?: Readonly<{
    path: string;
    everyIds: number;
    /** Ids held in memory before they are written out as a run, a file beside the snapshot (`SEAL_IDS` unless given). */
    sealIds?: number;
  }>;
}>;

/**
 * Which usage batch (a subscription and a revision of its usage stream) holds each usage event id
 * of an organisation (an id is unique per organisation): the commands' lookup for ids stored
 * earlier, on the subscription a batch names or another. Kept as 64-bit fingerprints of the
 * organisation and the id beside a batch number, built from the log at start and following it
 * since. A read model document per id cost a b-tree insert and a page written at a random place
 * for every id (random ids ran at 25-30k events/s, 68-72k without).
 *
 * A fingerprint match names a batch that may hold the id: reading that one event says for sure. A
 * sandbox reset frees its organisation's ids (the subscriptions before it hold none).
 * With a snapshot, a start reads it (when the log holds the event it ends at) and the log after it.
 * With a snapshot, the ids past `sealIds` go to sorted runs on disk beside it (`FingerprintLevels`):
 * memory holds about 1.5 bytes an id there instead of 24-48, and a lookup of an absent id mostly
 * reads nothing.
 */
export class UsageEventIdIndex {
  private levels: FingerprintLevels;
  private batches = UsageBatches.empty();
  /** Each live subscription's number; the number's subscription and organisation. */
  private readonly numbers = new Map<string, number>();
  private subscriptions: string[] = [];
  private organisations: string[] = [];
  /** Numbers of the subscriptions a sandbox reset emptied. */
  private readonly reset = new Set<number>();
  private readonly generations = new SandboxGenerations();
  private readonly byOrganisation = new Map<string, number[]>();
  private position = 0n;
  /** The id of the event at `position`. */
  private eventId: string | null = null;
  /** The position of the event read before that one (0n: none). */
  private before = 0n;
  /** The ids held and the position when the last snapshot was taken, and the one being written. */
  private snapshotIds = 0;
  private snapshotPosition = 0n;
  private snapshotting: Promise<void> | null = null;
  /** Whether a snapshot was asked for while one was being written. */
  private snapshotAgain = false;
  private started: Promise<void> | null = null;
  private stopped = false;
  private following: AppendsFollowed | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly logger: Logger,
    private readonly options: UsageEventIdIndexOptions = {},
  ) {
    this.levels = FingerprintLevels.empty(this.levelsOptions());
  }

  /** Reads its snapshot and the log after it, or the whole log (once; later calls wait for that read), then follows the log. */
  start(): Promise<void> {
    this.started ??= this.open().catch((error: unknown) => {
      this.started = null;
      throw error;
    });
    return this.started;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.following?.stop();
    await this.levels.settled();
    while (this.snapshotting) await this.snapshotting;
    if (this.started && (this.position !== this.snapshotPosition || this.snapshotAgain)) await this.snapshot();
    await this.levels.close();
  }

  /** Waits for the runs being written out or merged (what it holds in memory is then only the newest ids). */
  settled(): Promise<void> {
    return this.levels.settled();
  }

  /**
   * The batches that may hold each of the ids (every one that does, and rarely one that does not),
   * the log position the answer includes everything up to, and the last revision of the
   * subscription's usage stream it includes (-1: none). Waits for the start's read.
   */
  async holdersOf(organisationId: string, subscriptionId: string, eventIds: readonly string[]) {
    await this.start();
    const holders = new Map<string, UsageIdHolder[]>();
    for (const eventId of eventIds) {
      for (const batch of this.levels.valuesOf(fingerprintOf(keyOf(organisationId, eventId)))) {
        const number = this.batches.subscriptionOf(batch);
        if (this.organisations[number] !== organisationId) continue;
        // A subscription a sandbox reset emptied holds nothing, unless it is the one asked about (its stream keeps its ids).
        if (this.reset.has(number) && this.subscriptions[number] !== subscriptionId) continue;
        const holder = { subscriptionId: this.subscriptions[number]!, revision: this.batches.revisionOf(batch) };
        const found = holders.get(eventId);
        if (!found) holders.set(eventId, [holder]);
        else if (!found.some((h) => h.subscriptionId === holder.subscriptionId && h.revision === holder.revision)) found.push(holder);
      }
    }
    return { holders, through: this.position, readThrough: this.lastRevisionRead(subscriptionId) };
  }

  /** The last revision of the subscription's usage stream it has read (-1: none). Waits for the start's read. */
  async readThroughOf(subscriptionId: string): Promise<number> {
    await this.start();
    return this.lastRevisionRead(subscriptionId);
  }

  private lastRevisionRead(subscriptionId: string): number {
    const number = this.numbers.get(subscriptionId);
    return number === undefined ? -1 : this.batches.lastRevisionOf(number);
  }

  private async open(): Promise<void> {
    const started = performance.now();
    const snapshot = await this.readSnapshot();
    // Runs written while the log is read are merged once it is: a merge would slow the read it runs beside.
    this.levels.holdMerges();
    await this.follow();
    this.levels.mergeDue();
    this.logger.info(
      {
        ids: this.levels.size,
        inMemory: this.levels.inTable,
        subscriptions: this.numbers.size,
        position: String(this.position),
        fromSnapshot: snapshot ? String(snapshot.position) : null,
        ms: Math.round(performance.now() - started),
      },
      'usage event id index read',
    );
    // Runs no snapshot names: merged away before a crash, or of a snapshot ignored.
    void this.levels.prune([]);
    if (this.stopped) return;
    this.following = followAppends(
      this.store,
      () => this.follow(),
      (error) => this.logger.error({ err: error }, 'usage event id index: reading the log failed; retrying on the next append or poll'),
      this.options.pollMs,
    );
    // What was appended between the last read and the subscription.
    void this.following.run();
  }

  private async follow(): Promise<void> {
    for (;;) {
      const batch = await this.store.readAll(this.position, BATCH);
      for (const event of batch) {
        this.apply(event);
        this.before = this.position;
        this.position = event.position;
        this.eventId = event.id;
      }
      if (batch.length < BATCH || this.stopped) break;
    }
    const every = this.options.snapshot?.everyIds;
    if (every !== undefined && !this.snapshotting && this.levels.size - this.snapshotIds >= Math.max(every, this.levels.inTable / 4)) this.requestSnapshot();
  }

  /** A snapshot written now, or once the one being written is. */
  private requestSnapshot(): void {
    if (this.snapshotting) {
      this.snapshotAgain = true;
      return;
    }
    this.snapshotAgain = false;
    this.snapshotting = this.snapshot().finally(() => {
      this.snapshotting = null;
      if (this.snapshotAgain && !this.stopped) this.requestSnapshot();
    });
  }

  /** Where the levels write their runs: beside the snapshot (none without one: the table alone). */
  private levelsOptions(): FingerprintLevelsOptions | null {
    const snapshot = this.options.snapshot;
    if (!snapshot) return null;
    return {
      directory: dirname(snapshot.path),
      prefix: `${basename(snapshot.path)}.run-`,
      sealPairs: snapshot.sealIds ?? SEAL_IDS,
      onError: (error) => this.logger.error({ err: error }, 'usage event id index: writing a run failed; its ids stay in memory'),
      onRunsChanged: (change) => {
        this.logger.info(change, change.change === 'written' ? 'usage event ids written out as a run' : 'usage event id runs merged');
        this.requestSnapshot();
      },
    };
  }

  /** The snapshot's state taken in, when there is one and the log holds the event it ends at (else nothing: the whole log is read). */
  private async readSnapshot(): Promise<UsageEventIdState | null> {
    const path = this.options.snapshot?.path;
    const state = path ? await readSnapshot(path).catch((error: unknown) => this.ignored(path, error)) : null;
    if (!state) return null;
    if (state.position !== 0n) {
      // Read from the event before it: a position EventStoreDB can read from (not one in between,
      // which it refuses, as it may one of another log's).
      const read = await this.store.readAll(state.before, 1).catch((error: unknown) => error as Error);
      if (read instanceof Error) return this.ignored(path!, read);
      const [event] = read;
      if (event?.position !== state.position || event.id !== state.eventId) return this.ignored(path!, 'the log does not hold the event it ends at');
    }
    const levels = FingerprintLevels.restore(state.levels, this.levelsOptions());
    if (!levels) return this.ignored(path!, 'a run it names is missing or not whole');
    this.levels = levels;
    this.batches = UsageBatches.of(state.batches);
    this.subscriptions = [...state.subscriptions];
    this.organisations = [...state.organisations];
    for (const number of state.reset) this.reset.add(number);
    for (const [organisationId, generation] of state.generations) this.generations.reset(organisationId, generation);
    this.subscriptions.forEach((subscriptionId, number) => {
      if (!this.reset.has(number)) this.recordNumber(subscriptionId, this.organisations[number]!, number);
    });
    this.position = state.position;
    this.eventId = state.eventId;
    this.before = state.before;
    this.snapshotIds = this.levels.size;
    this.snapshotPosition = state.position;
    return state;
  }

  private ignored(path: string, reason: unknown): null {
    this.logger.warn({ path, reason: reason instanceof Error ? reason.message : reason }, 'usage event id snapshot ignored: the whole log is read');
    return null;
  }

  /** Writes what it holds now (a copy: it goes on following the log meanwhile); a failure is logged, the next one tries again. */
  private async snapshot(): Promise<void> {
    const path = this.options.snapshot?.path;
    const levels = this.levels.state();
    if (!path || !levels) return;
    const ids = this.levels.size;
    const state: UsageEventIdState = {
      position: this.position,
      eventId: this.eventId,
      before: this.before,
      levels,
      batches: this.batches.copy(),
      subscriptions: [...this.subscriptions],
      organisations: [...this.organisations],
      reset: [...this.reset],
      generations: this.generations.entries(),
    };
    try {
      await writeSnapshot(path, state);
      this.snapshotIds = ids;
      this.snapshotPosition = state.position;
      await this.levels.prune(levels.runs);
    } catch (error) {
      this.logger.error({ err: error, path }, 'usage event id snapshot not written');
    }
  }

  private apply(stored: StoredEvent): void {
    // Of every event the log holds, only these are decoded.
    if (stored.type !== 'UsageRecorded' && stored.type !== 'SandboxReset') return;
    const event = decodeEvent(stored);
    if (event.type === 'UsageRecorded') {
      // A batch of an earlier sandbox generation landing after its reset holds nothing, as the reset's subscriptions.
      if (this.generations.outdated(event.metadata)) return;
      const { data } = event;
      const batch = this.batches.add(this.numberOf(data.subscriptionId, data.organisationId), event.revision);
      for (const group of data.groups) for (const usage of group.events) this.levels.add(fingerprintOf(keyOf(data.organisationId, usage.eventId)), batch);
    } else if (event.type === 'SandboxReset') {
      const { organisationId, generation } = event.data;
      this.generations.reset(organisationId, generation);
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
      this.recordNumber(subscriptionId, organisationId, number);
    }
    return number;
  }

  private recordNumber(subscriptionId: string, organisationId: string, number: number): void {
    this.numbers.set(subscriptionId, number);
    const numbers = this.byOrganisation.get(organisationId);
    if (numbers) numbers.push(number);
    else this.byOrganisation.set(organisationId, [number]);
  }
}
