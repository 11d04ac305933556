/** A domain event as deciders see it: a past-tense type and its facts. Metadata rides elsewhere. */
export type DomainEvent = Readonly<{ type: string; data: unknown }>;

export type Decider<State, Command, Event extends DomainEvent> = Readonly<{
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  /** Pure: throws a DomainError when a rule refuses the command. */
  decide: (command: Command, state: State) => Event[];
}>;
