/** The API document's scopes, plus `usage:write` for reporting usage. */
export const SCOPES = [
  'customers:read',
  'customers:write',
  'catalogue:read',
  'subscriptions:read',
  'subscriptions:write',
  'invoices:read',
  'credit_notes:read',
  'usage:write',
] as const;

export type Scope = (typeof SCOPES)[number];
