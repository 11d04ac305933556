import type { EventStore } from '../../infra/event-store/port';

/**
 * The store, with a write that can be made to land just before its next append: another process
 * appending between a handler's load and its append (the append then conflicts and is decided again).
 */
export const racingStore = (store: EventStore) => {
  let raceOnNextAppend: (() => Promise<unknown>) | null = null;
  const racing = new Proxy(store, {
    get: (target, name) =>
      name === 'append'
        ? async (...args: Parameters<EventStore['append']>) => {
            const race = raceOnNextAppend;
            raceOnNextAppend = null;
            await race?.();
            return target.append(...args);
          }
        : (Reflect.get(target, name) as unknown),
  });
  return { store: racing, beforeNextAppend: (race: () => Promise<unknown>) => (raceOnNextAppend = race) };
};
