import type { Decider, DomainEvent } from '../../domain/shared/decider';
import { DomainError } from '../../domain/shared/domain-error';

/** given(events).when(command).then(events) / .thenRefuses(code, param) for a pure decider. */
export const deciderSpec =
  <S, C, E extends DomainEvent>(decider: Decider<S, C, E>) =>
  (given: E[]) => ({
    when: (command: C) => {
      const run = () => decider.decide(command, given.reduce(decider.evolve, decider.initialState()));
      return {
        then: (expected: E[]) => expect(run()).toEqual(expected),
        thenRefuses: (code: string, param?: string) => {
          let error: unknown;
          try {
            run();
          } catch (caught) {
            error = caught;
          }
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).code).toBe(code);
          if (param !== undefined) expect((error as DomainError).param).toBe(param);
        },
      };
    },
  });
