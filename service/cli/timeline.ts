import type { Actor, StoredEvent } from '../../infra/event-store/port';

const MONEY = /^-?\d+\.\d{4}$/;

const actorName = (actor: Actor): string => (actor.type === 'api_key' ? `api_key ${actor.id}` : actor.type === 'console' ? `console ${actor.session}` : actor.type);

/** The amounts an event states (its 4-decimal money fields, and its lines'), as `name=amount`. */
const amounts = (data: unknown, prefix = ''): string[] => {
  if (Array.isArray(data)) return data.flatMap((item, i) => amounts(item, `${prefix}${i}.`));
  if (data === null || typeof data !== 'object') return [];
  return Object.entries(data).flatMap(([key, value]) =>
    typeof value === 'string' && MONEY.test(value) ? [`${prefix}${key}=${value}`] : key === 'lines' ? amounts(value, 'line') : [],
  );
};

/** One event as a line of a readable timeline: when, who, what happened, the amounts. */
export const timelineLine = (event: StoredEvent): string => {
  const { metadata } = event;
  const business = metadata.businessTime === metadata.recordedTime ? '' : ` (business time ${metadata.businessTime})`;
  const what = `${event.type} v${event.version} #${event.revision}`;
  const money = amounts(event.data);
  const request = metadata.requestId ? `  request ${metadata.requestId}` : '';
  return `${metadata.recordedTime}${business}  ${actorName(metadata.actor).padEnd(32)} ${what}${money.length ? `  ${money.join(' ')}` : ''}${request}`;
};
