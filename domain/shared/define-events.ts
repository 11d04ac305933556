import { z } from 'zod';
import type { EventDefinition } from './event-definition';

/** One event type as declared: its schema (version 1), or a later version's schema with the upcasters that lift each earlier one. */
type Declaration = z.ZodType | Readonly<{ version: number; schema: z.ZodType; upcasters?: EventDefinition['upcasters'] }>;

type DataOf<D extends Declaration> = D extends z.ZodType ? z.infer<D> : D extends { schema: infer Schema extends z.ZodType } ? z.infer<Schema> : never;

/** An aggregate's events by type, each with the definition it is read from the log with. */
export type DefinedEvents = Readonly<Record<string, EventDefinition>>;

/**
 * An aggregate's events, each named once: by type, its definition (what the event catalogue reads
 * the log with); as a type, through `EventOf`, the union the decider folds. Another aggregate's
 * events join by spreading them in.
 */
export const defineEvents = <const Declared extends Readonly<Record<string, Declaration>>>(
  declared: Declared,
): { readonly [Type in keyof Declared & string]: EventDefinition<Type, DataOf<Declared[Type]>> } =>
  Object.fromEntries(
    Object.entries(declared).map(([type, declaration]) => [
      type,
      declaration instanceof z.ZodType ? { type, version: 1, schema: declaration } : { ...declaration, type },
    ]),
  ) as { readonly [Type in keyof Declared & string]: EventDefinition<Type, DataOf<Declared[Type]>> };

/** The events defined, as `{ type, data }`; given some of their types, the events of those types. */
export type EventOf<Events extends DefinedEvents, Type extends keyof Events = keyof Events> = {
  [T in Type & string]: { type: T; data: z.infer<Events[T]['schema']> };
}[Type & string];
