import type { EventStore, StoredEvent } from '../infra/event-store/port';
import { type AppendsFollowed, followAppends } from '../infra/follow-appends';
import type { Logger } from '../infra/logger';
import type { ReadStore } from '../infra/read-store/port';

export type FollowerStatus = Readonly<{ name: string; checkpoint: string; head: string; lag: number }>;

/**
 * The outbox of one worker: follows the log from its own checkpoint and hands each batch of the
 * events it handles to `onEvents` (which enqueues jobs under ids derived from the events), then
 * moves the checkpoint. A crash between the append and the enqueue only means the batch is handed
 * over again on the next start, and the derived job ids make that harmless. The events are handed
 * over as recorded: `onEvents` decodes (`decodeEvent`) those whose data it reads, most it skips.
 */
export class LogFollower {
  private checkpoint = 0n;
  private stopped = false;
  private following: AppendsFollowed | null = null;
  private readonly handles: ReadonlySet<string>;

  constructor(
    readonly name: string,
    private readonly deps: Readonly<{ store: EventStore; readStore: ReadStore; logger: Logger }>,
    handles: readonly string[],
    private readonly onEvents: (events: readonly StoredEvent[]) => Promise<void>,
    private readonly options: Readonly<{ batchSize?: number; pollMs?: number }> = {},
  ) {
    this.handles = new Set(handles);
  }

  private get checkpointName(): string {
    return `worker:${this.name}`;
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.checkpoint = await this.deps.readStore.checkpoint(this.checkpointName);
    this.following = followAppends(
      this.deps.store,
      () => this.drain(),
      (error) => this.deps.logger.error({ err: error, follower: this.name }, 'worker outbox run failed; retrying on the next append or poll'),
      this.options.pollMs,
    );
    await this.catchUp();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.following?.stop();
    this.following = null;
  }

  async status(): Promise<FollowerStatus> {
    const head = await this.deps.store.headPosition();
    const checkpoint = this.stopped ? await this.deps.readStore.checkpoint(this.checkpointName) : this.checkpoint;
    return { name: this.name, checkpoint: checkpoint.toString(), head: head.toString(), lag: Number(head > checkpoint ? head - checkpoint : 0n) };
  }

  catchUp(): Promise<void> {
    return this.following?.run() ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const batch = await this.deps.store.readAll(this.checkpoint, this.options.batchSize ?? 500);
      if (batch.length === 0) return;
      const wanted = batch.filter((event) => this.handles.has(event.type));
      if (wanted.length > 0) await this.onEvents(wanted);
      const last = batch[batch.length - 1]!.position;
      await this.deps.readStore.commit([], [{ name: this.checkpointName, position: last }]);
      this.checkpoint = last;
    }
  }
}
