/** The opening of the public API's reference: what every operation has in common. */
export const PUBLIC_API_INTRODUCTION = `
  The REST API an organisation's own platform calls to sell recurring subscriptions. Each billing
  action (creating a subscription, changing its units, renewing it, billing metered usage) raises an
  invoice, or a credit note, in the accounting system connected to the organisation.

  A first integration: read the plans and charges and cache their codes; on signup, create the
  customer and the subscription (its first invoice is raised at once); send the new total when seats
  change; report usage for plans that bill meters; read the invoices, or receive webhooks instead of
  polling.

  ## Authentication

  Every request but this document's carries \`Authorization: Bearer <API key>\`. A key belongs to one
  organisation and holds chosen scopes. A \`service_live_\` key works only against a live organisation,
  a \`service_test_\` key only in its sandbox, a separate copy for testing that invoices a demonstration
  organisation of the accounting system and can run on a test clock.

  | Scope | Grants |
  | - | - |
  | \`customers:read\` | List and retrieve customers |
  | \`customers:write\` | Create customers (and contacts, where the organisation allows it) |
  | \`catalogue:read\` | List and retrieve plans and charges |
  | \`subscriptions:read\` | List and retrieve subscriptions |
  | \`subscriptions:write\` | Create subscriptions, change units, end and restore them |
  | \`invoices:read\` | List and retrieve invoices |
  | \`credit_notes:read\` | List and retrieve credit notes |
  | \`usage:write\` | Report usage events |

  ## Conventions

  Requests and responses are JSON (send \`Content-Type: application/json\` with a body). Every object
  has an \`id\` and an \`object\` naming its type. Money is a decimal string with four places
  (\`"12.5000"\`), computed exactly; \`discount_percent\` has two. Timestamps are ISO 8601 in UTC;
  calendar dates are \`YYYY-MM-DD\`, read in the organisation's timezone. Every response carries a
  \`Request-Id\` header. A GET right after a write by the same client sees that write.

  ## Errors

  An error answers \`{"error": {"type", "code", "message", "param", "request_id"}}\`. Branch on \`code\`,
  never on \`message\`; \`param\` names the field concerned (nested fields with dots, such as
  \`create_customer.name\`). New codes may be added: handle an unknown one by its status.

  | Status | Codes every operation may answer |
  | - | - |
  | 400 | \`invalid_json\`: the body is not valid JSON |
  | 401 | \`invalid_api_key\` (missing, malformed or unknown), \`api_key_revoked\`, \`api_key_expired\` |
  | 403 | \`insufficient_scope\`, \`api_key_mode_mismatch\` (a test key outside its sandbox, or a live key inside one) |
  | 404 | \`unknown_endpoint\`, or the object's own \`…_not_found\` |
  | 413 | \`payload_too_large\`: a body over 100,000 characters |
  | 422 | \`invalid_parameter\`: a field missing or invalid, an unknown field or query parameter |
  | 429 | \`rate_limited\`: wait \`Retry-After\` seconds |
  | 500 | \`internal_error\`: retry with the same \`Idempotency-Key\` |

  Fix the request on \`400\` and \`422\`; do not retry \`401\` or \`403\`; on \`409\` read the code (retry
  only \`request_in_progress\`); retry \`500\`, \`502\` and timeouts with backoff, the same
  \`Idempotency-Key\` and the same body.

  ## Idempotency

  Send \`Idempotency-Key\` (1 to 255 printable ASCII characters, no spaces) on a \`POST\`: it is required
  to create a subscription and optional elsewhere. For 24 hours, per API key, the same key with the
  same request answers the stored response again with \`Idempotent-Replayed: true\`, and nothing is done
  twice; with another request it answers \`409 idempotency_conflict\`, and while the first still runs
  \`409 request_in_progress\` with \`Retry-After: 2\`. Only successes are stored: after a failure, send
  the corrected request with the same key.

  ## Pagination

  Lists answer \`{"object": "list", "data": [...], "has_more": ...}\`, newest first. \`limit\` is 1 to 100
  (default 25); \`starting_after\` is the id of the last object of the previous page. Filters combine
  with paging; \`status\` takes comma-separated values.

  ## Rate limit

  120 requests in any 60 seconds per API key, failed ones included (a usage batch counts once). Every
  response carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`.
`;
