/** The only way code reads time: every organisation has one (real time, or a sandbox test clock). */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

export const fixedClock = (at: Date): Clock & { set(at: Date): void; advance(ms: number): void } => {
  let current = at;
  return {
    now: () => new Date(current.getTime()),
    set: (next) => {
      current = next;
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
};
