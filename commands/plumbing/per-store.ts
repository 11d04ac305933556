import type { EventStore } from '../../infra/event-store/port';

/** One `T` per log, made on first use (each test's fresh log gets its own). */
export const perStore = <T>(create: (store: EventStore) => T): ((store: EventStore) => T) => {
  const byStore = new WeakMap<EventStore, T>();
  return (store) => {
    let kept = byStore.get(store);
    if (kept === undefined) byStore.set(store, (kept = create(store)));
    return kept;
  };
};
