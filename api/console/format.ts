import type { Actor } from '../../infra/event-store/port';

/** A refused command: which form, the API's message, and what was typed (shown again). */
export type FormState = Readonly<{ form: string; error: string; values: Record<string, unknown> }>;

const actorName = (actor: Actor): string =>
  actor.type === 'api_key' ? `API key ${actor.id}` : actor.type === 'console' ? `console session ${actor.session}` : actor.type;

/** What the templates call to show values: one place for how an instant, an actor or a link reads. */
export const format = {
  /** `2026-03-15 10:00:00Z`: an ISO instant, readable, to the second (UTC, as recorded). */
  instant: (iso: string | null | undefined): string => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—'),
  actor: actorName,
  /** A value that may be absent. */
  or: (value: string | number | null | undefined, absent = '—'): string => (value === null || value === undefined || value === '' ? absent : String(value)),
  /** The value a form field shows: what was typed when its form was refused, else its default. */
  typed: (form: FormState | null, name: string, field: string, fallback = ''): string => {
    const value = form?.form === name ? form.values[field] : undefined;
    return typeof value === 'string' ? value : fallback;
  },
  /** The refusal shown beside a form, if it is this one's. */
  errorOf: (form: FormState | null, name: string): string | null => (form?.form === name ? form.error : null),
  /** A link to the same list with these query parameters changed (empty ones dropped). */
  query: (current: Record<string, unknown>, changes: Record<string, string | undefined>): string => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries({ ...current, ...changes })) if (typeof value === 'string' && value !== '') params.set(name, value);
    const text = params.toString();
    return text ? `?${text}` : '';
  },
  /** An event's data in one line: its fields, nested ones flattened (`line0.amount=48.0000`), long ones cut. */
  eventData: (data: Record<string, unknown>): string => {
    const parts: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) walk(inner, at ? `${at}.${key}` : key);
      else parts.push(`${at}=${String(value)}`);
    };
    walk(data, '');
    const text = parts.join(' ');
    return text.length > 400 ? `${text.slice(0, 400)}…` : text;
  },
};
