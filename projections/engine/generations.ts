import { generationName } from '../../infra/read-store/names';
import type { Checkpoint, Condition, Doc, FindQuery, GenerationWriter, IdPage, IndexSpec, Page, ReadStore, Write } from '../../infra/read-store/port';
import type { Projection } from './projection';

/** One small collection holds, per projection, the generation reads are served from and the version that built it. */
export const GENERATIONS = 'projection_generations';

export type Generation = Readonly<{ generation: number; version: number }>;
export type GenerationDoc = Generation & { id: string };

/** Generation 0 keeps the checkpoint name it always had, so a data directory from before generations reads on. */
export const checkpointName = (name: string, { generation, version }: Generation): string =>
  generation === 0 ? `${name}:v${version}` : `${name}:v${version}:g${generation}`;

/** Each of the projection's collections mapped to where this generation of it lives. */
export const generationNames = (projection: Projection, generation: number): Map<string, string> =>
  new Map(projection.collections.map((collection) => [collection, generationName(collection, generation)]));

export const generationIndexes = (projection: Projection, generation: number): IndexSpec[] =>
  projection.indexes.map((index) => ({ ...index, collection: generationName(index.collection, generation) }));

/**
 * The read models seen through one choice of generations: each collection name resolved, at every
 * call, by `name`. The API's view resolves to the live generations, so a switch is seen by the
 * very next read; a rebuild writes through a view of the generation it builds.
 */
export class GenerationView implements ReadStore {
  constructor(
    private readonly inner: ReadStore,
    private readonly name: (collection: string) => string,
  ) {}

  /** Writes or index specs with their collections renamed to this view's generation. */
  private named<T extends Readonly<{ collection: string }>>(items: readonly T[]): T[] {
    return items.map((item) => ({ ...item, collection: this.name(item.collection) }));
  }

  ensureIndexes(indexes: readonly IndexSpec[]): Promise<void> {
    return this.inner.ensureIndexes(this.named(indexes));
  }
  dropIndexes(collections: readonly string[]): Promise<void> {
    return this.inner.dropIndexes(collections.map((collection) => this.name(collection)));
  }
  get<T extends Doc>(collection: string, id: string): Promise<T | null> {
    return this.inner.get<T>(this.name(collection), id);
  }
  getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<T[]> {
    return this.inner.getMany<T>(this.name(collection), ids);
  }
  find<T extends Doc>(collection: string, query: FindQuery): Promise<Page<T>> {
    return this.inner.find<T>(this.name(collection), query);
  }
  findAll<T extends Doc>(collection: string, where?: readonly Condition[], page?: IdPage): Promise<T[]> {
    return this.inner.findAll<T>(this.name(collection), where, page);
  }
  count(collection: string, where?: readonly Condition[]): Promise<number> {
    return this.inner.count(this.name(collection), where);
  }
  commit(writes: readonly Write[], checkpoints?: readonly Checkpoint[], visible?: () => void): Promise<void> {
    return this.inner.commit(this.named(writes), checkpoints, visible);
  }
  deleteSomeWhere(collection: string, field: string, eq: string, limit: number): Promise<number> {
    return this.inner.deleteSomeWhere(this.name(collection), field, eq, limit);
  }
  generationWriter(): GenerationWriter {
    return this.writerFor(this.inner.generationWriter());
  }
  /** `inner` with the collections it is given renamed to this view's generation. */
  writerFor(inner: GenerationWriter): GenerationWriter {
    return {
      commit: (writes, checkpoints) => inner.commit(this.named(writes), checkpoints),
      drop: (collections) => inner.drop(collections.map((collection) => this.name(collection))),
      ...(inner.attach && { attach: () => inner.attach!() }),
      close: () => inner.close(),
    };
  }
  checkpoint(name: string): Promise<bigint> {
    return this.inner.checkpoint(name);
  }
  reset(collections: readonly string[], checkpointNames: readonly string[]): Promise<void> {
    return this.inner.reset(collections.map((collection) => this.name(collection)), checkpointNames);
  }
  drop(collections: readonly string[]): Promise<void> {
    return this.inner.drop(collections.map((collection) => this.name(collection)));
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
