/**
 * A first integration, as an organisation's platform would write it: a customer signs up for five
 * seats, takes three more, and reports API usage, which is billed; then its invoices are read.
 * Typed end to end: openapi-fetch checks every path, parameter and body against the types
 * openapi-typescript generated from the service's OpenAPI document (billing-api.d.ts).
 *
 *   BILLING_URL=http://127.0.0.1:3000 BILLING_API_KEY=service_test_… node dist/examples/integration.js
 *
 * The key is the sandbox key the service prints on its first start (it holds every scope, and its
 * catalogue has the `team` and `api` plans used here). Each run makes a customer of its own.
 */
import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { components, paths } from './billing-api';

type ApiError = components['schemas']['Error'];
type Invoice = components['schemas']['Invoice'];

const apiKey = process.env.BILLING_API_KEY;
if (!apiKey) {
  console.error('Set BILLING_API_KEY to an API key, such as the sandbox key the service printed on its first start.');
  process.exit(2);
}

const client = createClient<paths>({
  baseUrl: process.env.BILLING_URL ?? 'http://127.0.0.1:3000',
  headers: { Authorization: `Bearer ${apiKey}` },
});

/** The answer's data, or the API's error as an exception: a real integration branches on `error.code`. */
const ok = <T>(result: { data?: T; error?: ApiError; response: Response }): T => {
  if (result.error) throw new Error(`${result.response.status} ${result.error.error.code}: ${result.error.error.message}`);
  return result.data!;
};

/** One key per operation of this run: a retry with the same key is answered once and done once. */
const run = randomUUID().slice(0, 8);
const idempotency = (step: string) => ({ 'Idempotency-Key': `example-${run}-${step}` });

const invoiceLine = (invoice: Invoice): string =>
  `${invoice.id} ${invoice.number ?? '(no number yet)'} ${invoice.lines.map((line) => line.revenue_type).join('+')} ` +
  `subtotal ${invoice.subtotal} ${invoice.currency}, ${invoice.accounting.sync_status} in the accounting system`;

const main = async (): Promise<void> => {
  // 1. The customer, found or created by its code (the contact number in the accounting system).
  const customer = ok(
    await client.POST('/v1/customers', {
      params: { header: idempotency('customer') },
      body: { code: `EXAMPLE-${run}`, name: `Example Customer ${run}`, email: `billing+${run}@customer.example` },
    }),
  );
  console.log(`customer ${customer.id} (${customer.code})`);

  // 2. Five seats of the per-seat plan: the first invoice is raised and pushed at once.
  const seats = ok(
    await client.POST('/v1/subscriptions', {
      params: { header: idempotency('seats') },
      body: { customer_code: customer.code!, plan_code: 'team', units: 5 },
    }),
  );
  console.log(`subscription ${seats.id}: ${seats.units} seats, renews ${seats.renewal_date}`);
  if (seats.invoice) console.log(`  first invoice ${invoiceLine(seats.invoice)}`);

  // 3. Three more seats from today: the prorated difference is invoiced at once.
  const changed = ok(
    await client.POST('/v1/subscriptions/{id}/units', {
      params: { path: { id: seats.id }, header: idempotency('units') },
      body: { units: 8, prorate: true, proration_behaviour: 'charge_immediately', effective_date: seats.start_date },
    }),
  );
  console.log(`subscription ${changed.id}: ${changed.change.previous_units} → ${changed.change.units} seats`);
  if (changed.change.invoice) console.log(`  change invoice ${invoiceLine(changed.change.invoice)}`);

  // 4. The API plan bills calls in arrears: report them (each event_id is stored once, so a retry is safe).
  const api = ok(
    await client.POST('/v1/subscriptions', {
      params: { header: idempotency('api') },
      body: { customer_code: customer.code!, plan_code: 'api' },
    }),
  );
  const usage = ok(
    await client.POST('/v1/usage_events', {
      params: { header: idempotency('usage') },
      body: {
        events: [
          { event_id: `${run}-1`, subscription: api.id, meter_code: 'api_calls', quantity: 1800 },
          { event_id: `${run}-2`, subscription: api.id, meter_code: 'api_calls', quantity: '450.5000' },
        ],
      },
    }),
  );
  console.log(`usage: ${usage.created} event(s) created, ${usage.duplicates} duplicate(s), ${usage.rejected} rejected`);

  // 5. Usage is invoiced once its period ends; here the API subscription ends now and bills it at once.
  const ended = ok(
    await client.POST('/v1/subscriptions/{id}/end', {
      params: { path: { id: api.id }, header: idempotency('end') },
      body: { when: 'now', invoice_usage_now: true },
    }),
  );
  console.log(`subscription ${ended.id}: ${ended.status}`);

  // 6. The customer's invoices, newest first.
  const invoices = ok(await client.GET('/v1/invoices', { params: { query: { customer: customer.id } } }));
  console.log(`invoices of ${customer.id}:`);
  for (const invoice of invoices.data) console.log(`  ${invoiceLine(invoice)}`);
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
