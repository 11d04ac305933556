/** The opening of the operator API's reference: what every operation has in common. */
export const ADMIN_API_INTRODUCTION = `
  The operator's side of the service: organisations and their sandboxes, API keys, the accounting
  connection, the catalogue, customers, webhook endpoints, test clocks, and the reads auditors and
  operators need (every object's event history, a subscription as of any instant, the read models'
  lag, blue/green rebuilds). The \`npm run admin\` command sits on it.

  Every request but this document's carries \`Authorization: Bearer <admin token>\`: the \`ADMIN_TOKEN\`
  the service was started with, or the one it generated on its first start (kept in
  \`$DATA_DIR/admin-token\`). Every write is a command that appends events to the log, like every write
  of the public API, so it appears in the objects' histories with the operator as its actor.

  The conventions are the public API's: JSON, \`id\` and \`object\` on every object, money as decimal
  strings with four places, the same error body (\`{"error": {"type", "code", "message", "param",
  "request_id"}}\`), a \`Request-Id\` header, cursor paging with \`limit\` and \`starting_after\`. A
  missing, malformed or wrong token answers \`401 invalid_admin_token\`; every operation under
  \`/admin/v1/organisations/{org}\` answers \`404 organisation_not_found\` when there is no such
  organisation; \`422 invalid_parameter\` names a missing, invalid or unknown field.

  Setting up an organisation: create it, connect the accounting system and map its revenue accounts,
  define meters, plans and charges, import customers, then create an API key for its platform (and
  open its sandbox to test against).
`;
