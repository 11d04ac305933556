import type { EventMetadata } from '../../../infra/event-store/port';
import type { ReadStore } from '../../../infra/read-store/port';
import type { ProjectionContext } from '../../engine/projection';

/**
 * Each organisation's timezone, which the reports' months are of; a sandbox's reset generation and
 * when each reset was recorded (the months as they stood before are told from the history,
 * `historyAt`). No `_organisation` field: a sandbox reset keeps it.
 */
export const REPORT_ORGANISATIONS = 'report_organisations';
type ReportOrganisationDoc = { id: string; timezone: string; generation: number; resets: string[] };

/**
 * What each organisation's reports are summed from (its subscriptions, invoices and credit notes),
 * in numbered chunks after a head that counts them: a change of timezone moves each to its month
 * again. A sandbox reset empties them with the rest.
 */
export const REPORT_MEMBERS = 'report_members';
type MembersHeadDoc = { id: string; _organisation: string; count: number };
type MembersChunkDoc = { id: string; _organisation: string; ids: string[] };

/** Small enough that adding one rewrites little, large enough that a change of timezone reads few. */
const CHUNK = 100;

const chunkId = (organisationId: string, index: number) => `${organisationId}/${index}`;

export const timezoneOf = async (context: ProjectionContext, organisationId: string): Promise<string> =>
  (await context.get<ReportOrganisationDoc>(REPORT_ORGANISATIONS, organisationId))?.timezone ?? 'UTC';

/** Records the organisation's timezone; true when it changed (and its members are to be moved to their months again). */
export const setTimezone = async (context: ProjectionContext, organisationId: string, timezone: string): Promise<boolean> => {
  const known = await context.get<ReportOrganisationDoc>(REPORT_ORGANISATIONS, organisationId);
  if (known?.timezone === timezone) return false;
  context.put(REPORT_ORGANISATIONS, { id: organisationId, timezone, generation: known?.generation ?? 0, resets: known?.resets ?? [] } satisfies ReportOrganisationDoc);
  return known !== null;
};

/** Records a sandbox reset: its generation, and when it was recorded. */
export const recordReset = async (context: ProjectionContext, organisationId: string, generation: number, recorded: string): Promise<void> => {
  const known = await context.get<ReportOrganisationDoc>(REPORT_ORGANISATIONS, organisationId);
  if (known) context.put(REPORT_ORGANISATIONS, { ...known, generation, resets: [...known.resets, recorded] } satisfies ReportOrganisationDoc);
};

/**
 * Whether an event was decided in a sandbox generation that a reset before it in the log ended (a
 * write landing after the reset that removed what it would have made): judged by the resets this
 * read model itself has applied, so a replay from the start skips exactly what the live one did.
 */
export const endedGeneration = async (context: ProjectionContext, { organisationId, livemode, resetGeneration }: EventMetadata): Promise<boolean> =>
  !livemode && resetGeneration !== undefined && resetGeneration < ((await context.get<ReportOrganisationDoc>(REPORT_ORGANISATIONS, organisationId))?.generation ?? 0);

/** The last reset of the organisation recorded up to an instant, if any. */
export const lastResetUpTo = async (readStore: Pick<ReadStore, 'get'>, organisationId: string, instant: Date): Promise<string | null> =>
  (await readStore.get<ReportOrganisationDoc>(REPORT_ORGANISATIONS, organisationId))?.resets.filter((reset) => Date.parse(reset) <= instant.getTime()).at(-1) ?? null;

export const addMember = async (context: ProjectionContext, organisationId: string, id: string): Promise<void> => {
  const head = (await context.get<MembersHeadDoc>(REPORT_MEMBERS, organisationId)) ?? { id: organisationId, _organisation: organisationId, count: 0 };
  const chunk = chunkId(organisationId, Math.floor(head.count / CHUNK));
  const ids = (await context.get<MembersChunkDoc>(REPORT_MEMBERS, chunk))?.ids ?? [];
  context.put(REPORT_MEMBERS, { id: chunk, _organisation: organisationId, ids: [...ids, id] } satisfies MembersChunkDoc);
  context.put(REPORT_MEMBERS, { ...head, count: head.count + 1 } satisfies MembersHeadDoc);
};

/** Every member of the organisation, in the order added. */
export async function* membersOf(context: ProjectionContext, organisationId: string): AsyncGenerator<string> {
  const count = (await context.get<MembersHeadDoc>(REPORT_MEMBERS, organisationId))?.count ?? 0;
  for (let index = 0; index * CHUNK < count; index++) {
    yield* (await context.get<MembersChunkDoc>(REPORT_MEMBERS, chunkId(organisationId, index)))?.ids ?? [];
  }
}
