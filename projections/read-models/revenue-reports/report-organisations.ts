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

export const timezoneOf = async (context: ProjectionContext, organisationId: string): Promise<string> =>
  (await context.get<ReportOrganisationDoc>(REPORT_ORGANISATIONS, organisationId))?.timezone ?? 'UTC';

/** Records the organisation's timezone; true when it changed (and its subscriptions and documents are to be moved to their months again). */
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
