import type { Request } from 'express';

/** The first page has no cursor; the trail says so with this. */
const FIRST = '-';

/**
 * A list's query as the console's links carry it: the list's own parameters, and `trail`, the
 * cursors of the pages before this one (the API pages forward only; "Previous page" goes back
 * along the trail).
 */
export const pageTrail = (req: Request): { query: Record<string, string>; trail: Readonly<{ next: (lastId: string) => string; previous: string | null }> } => {
  const { trail = '', ...rest } = formQuery(req.query);
  const query: Record<string, string> = { ...rest };
  const cursors = trail === '' ? [] : trail.split(',');
  const here = query.starting_after ?? FIRST;
  const link = (changes: Record<string, string | undefined>) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries({ ...query, ...changes })) if (value) params.set(name, value);
    return `?${params.toString()}`;
  };
  const back = cursors.at(-1);
  return {
    query,
    trail: {
      next: (lastId) => link({ starting_after: lastId, trail: [...cursors, here].join(',') }),
      previous: back === undefined ? null : link({ starting_after: back === FIRST ? undefined : back, trail: cursors.slice(0, -1).join(',') || undefined }),
    },
  };
};

/**
 * A form's or a query's fields as the API would take them: strings, the empty ones left out (an
 * empty filter is no filter); with `fields`, only those (the CSRF token and buttons are not the API's).
 */
export const formQuery = (values: unknown, fields?: readonly string[]): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries((values ?? {}) as Record<string, unknown>)) {
    if (fields && !fields.includes(name)) continue;
    if (typeof value === 'string' && value !== '') out[name] = value;
  }
  return out;
};
