import type { Clocks } from '../../infra/clock/clocks';
import type { EventStore } from '../../infra/event-store/port';

/** What every command handler may use: the log and the organisations' clocks. */
export type CommandDeps = Readonly<{ store: EventStore; clocks: Clocks }>;
