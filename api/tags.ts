/**
 * The groups the API reference shows its operations in, in the order it shows them, each with what
 * an integrator or operator finds there. A route's `tag` is one of these names, so every tag an
 * OpenAPI document uses is declared in it.
 */
export const TAGS = {
  Organisation: 'The organisation an API key belongs to: its timezone (dates you send are read in it), currency, Setup Mode and whether the API may create customers.',
  Organisations:
    'Live organisations, their settings and their one sandbox: opening it, resetting it, its test clock, and the CPI percentages that `cpi_enabled` subscriptions rise by at renewal.',
  'API keys': 'Keys for the public API: each belongs to one organisation (a `service_live_` key to a live one, `service_test_` to its sandbox) and holds chosen scopes.',
  Accounting:
    'The connection to the accounting system that invoices and credit notes are raised in, and the revenue accounts their lines are booked to. Subscriptions are refused until both are in place (`409 accounting_not_connected` in a live organisation, `409 accounting_accounts_not_mapped`).',
  Catalogue: 'Meters, plans and one-off charges: what subscriptions can be sold on. The public API reads them (Plans, Charges).',
  Plans: 'What a subscription is sold on: price, billing interval, unit pricing (flat fee, per unit, tiered, volume, stairstep) and the meters billed in arrears. Read-only through the API.',
  Charges: 'One-off fees a new subscription can add to its first invoice. Read-only through the API.',
  Customers:
    'The organisation’s customers, each tied to a contact in the accounting system by its code (the contact number). A customer is found by code, adopted from an existing contact, or created with one.',
  Subscriptions:
    'The object an integration writes: create one (its first invoice is raised at once), change its units, end it now or at its renewal date, restore it. Renewals are raised by the service itself.',
  Invoices: 'Invoices raised for subscriptions (first, unit change, renewal and usage invoices), with their lines and the state of their copy in the accounting system.',
  'Credit notes': 'Credits raised when a change lowers what is payable, with where each credit was applied.',
  Usage: 'Metered usage reported against a subscription, totalled and billed in arrears once its period ends.',
  'Webhook endpoints': 'HTTPS endpoints the service signs and sends events to, with the history of each delivery.',
  Audit: 'The log behind every object: its events with their metadata, a subscription as it stood at any instant, and the usage events an invoice line billed.',
  Reports:
    'Finance’s two monthly reports, exact to the ten-thousandth: MRR and how it moved (new, expansion, contraction, churn, reactivation), and invoiced revenue by type net of credit notes; as JSON or CSV, and as a report asked at any past instant gave them.',
  Projections: 'The read models the API reads, each followed from the log: their lag, and blue/green rebuilds beside the live service.',
  Operations: 'The background workers: queues, failed jobs and how far each has followed the log.',
  Meta: 'The machine-readable description of this API, which this reference is rendered from.',
} as const;

export type Tag = keyof typeof TAGS;
