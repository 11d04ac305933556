import { chargeDecider } from '../../domain/charge/decider';
import { chargeStream } from '../../domain/charge/events';
import { customerDecider } from '../../domain/customer/decider';
import { customerStream } from '../../domain/customer/events';
import { invoiceDecider } from '../../domain/invoice/decider';
import { invoiceStream } from '../../domain/invoice/events';
import { firstInvoice } from '../../domain/invoice/first-invoice';
import { organisationDecider } from '../../domain/organisation/decider';
import { organisationStream } from '../../domain/organisation/events';
import { planDecider } from '../../domain/plan/decider';
import { planStream } from '../../domain/plan/events';
import { DomainError } from '../../domain/shared/domain-error';
import { decideCreation, type CreateSubscription } from '../../domain/subscription/create';
import { subscriptionDecider } from '../../domain/subscription/decider';
import { type SubscriptionCreatedData, subscriptionStream } from '../../domain/subscription/events';
import { derivedId } from '../../infra/ids';
import { planIdFor } from '../catalogue/create-plan';
import { customerIdFor, type CustomerInput, importCustomer, type ImportDeps } from '../customer/import-customer';
import { handle, loadState } from '../handle';
import { pushInvoice } from '../invoice/push-invoice';
import { type Caller, eventMetadata } from '../metadata';
import { METERS } from '../../projections/meters';
import { SUBSCRIPTIONS } from '../../projections/subscriptions';

export type CreateSubscriptionInput = Readonly<{
  customerCode: string;
  createCustomer: Omit<CustomerInput, 'code'> | null;
  planCode: string;
  charges: readonly { chargeId: string; quantity: number; price: string | null; applyDiscount: boolean }[];
  request: CreateSubscription['request'];
}>;

const notFound = (code: string, message: string, param: string) => new DomainError('not_found', code, message, param);
const conflict = (code: string, message: string) => new DomainError('conflict', code, message);

/**
 * `POST /v1/subscriptions`: checks everything before changing anything, creates the customer when
 * asked, records the subscription under an id derived from the API key and the Idempotency-Key,
 * raises its first invoice under an id derived from the subscription's, and pushes that invoice to
 * the accounting system. Run again after a crash, it finds what was done and finishes the rest.
 */
export const createSubscription = async (
  deps: ImportDeps,
  caller: Caller,
  context: { organisationId: string; apiKeyId: string; idempotencyKey: string },
  input: CreateSubscriptionInput,
) => {
  const subscriptionId = derivedId('subscription', context.apiKeyId, context.idempotencyKey);
  const org = (await loadState(deps.store, organisationStream(context.organisationId), organisationDecider)).state;
  if (org.status !== 'open') throw notFound('organisation_not_found', 'No such organisation.', 'org');
  const organisationRef = { id: org.organisationId, livemode: org.livemode };
  const metadata = () => eventMetadata(caller, organisationRef, deps.clocks);

  /** Raises the first invoice if it is not yet raised, then pushes it if it is not yet pushed. */
  const finish = async (subscription: SubscriptionCreatedData, position: bigint) => {
    const invoiceId = subscription.firstInvoiceId;
    if (!invoiceId) return { subscriptionId, invoiceId, position };
    const raised = firstInvoice({
      subscription,
      lineIds: [null, ...subscription.firstInvoiceCharges].map((_, i) => derivedId('invoiceLine', invoiceId, String(i))),
      now: deps.clocks.forOrganisation(org.organisationId).now().toISOString(),
      paymentTermsDays: org.settings.paymentTermsDays,
    });
    await handle(deps.store, invoiceStream(invoiceId), invoiceDecider, { type: 'RaiseInvoice', ...raised }, metadata());
    const pushed = await pushInvoice(deps, caller, org, invoiceId);
    return { subscriptionId, invoiceId, position: pushed.position > position ? pushed.position : position };
  };

  const existing = await loadState(deps.store, subscriptionStream(subscriptionId), subscriptionDecider);
  if (existing.state.status !== 'none') return finish(existing.state.subscription, 0n);

  // Setup Mode exists only in live organisations: a sandbox always raises invoices.
  const setupMode = org.livemode && org.settings.setupMode;
  if (!setupMode) {
    if (org.livemode && !org.accounting) throw conflict('accounting_not_connected', 'The organisation is not connected to the accounting system.');
    if (org.accounting && !org.accounting.revenueAccount) {
      throw conflict('accounting_accounts_not_mapped', 'Map the revenue account before raising invoices.');
    }
    const metersDefined = (await deps.readStore.count(METERS, [{ field: '_organisation', eq: org.organisationId }])) > 0;
    if (org.accounting && metersDefined && !org.accounting.usageRevenueAccount) {
      throw conflict('accounting_accounts_not_mapped', 'Meters are defined: map the usage revenue account too.');
    }
  }
  const limit = org.planLimits.subscriptions;
  if (org.livemode && limit !== null) {
    const live = await deps.readStore.count(SUBSCRIPTIONS, [
      { field: '_organisation', eq: org.organisationId },
      { field: 'status', in: ['pending', 'active'] },
    ]);
    if (live >= limit) throw new DomainError('permission', 'plan_limit_reached', `The organisation's plan allows ${limit} subscriptions.`);
  }

  const plan = (await loadState(deps.store, planStream(planIdFor(org.organisationId, input.planCode)), planDecider)).state;
  if (plan.status !== 'defined') throw notFound('plan_not_found', `No plan with code ${input.planCode}.`, 'plan_code');

  const charges = [];
  for (const [i, wanted] of input.charges.entries()) {
    const charge = (await loadState(deps.store, chargeStream(wanted.chargeId), chargeDecider)).state;
    if (charge.status !== 'defined' || charge.charge.organisationId !== org.organisationId) {
      throw notFound('charge_not_found', `No charge with id ${wanted.chargeId}.`, `charges.${i}.charge`);
    }
    charges.push({ charge: charge.charge, quantity: wanted.quantity, price: wanted.price, applyDiscount: wanted.applyDiscount });
  }

  const customerId = customerIdFor(org.organisationId, input.customerCode);
  const customer = (await loadState(deps.store, customerStream(customerId), customerDecider)).state;
  if (customer.status === 'none') {
    if (!input.createCustomer) throw notFound('customer_not_found', `No customer with code ${input.customerCode}.`, 'customer_code');
    if (!org.settings.canCreateAccountingContacts) {
      throw new DomainError('permission', 'accounting_contact_creation_disabled', 'The organisation has not allowed the API to create customers.');
    }
  }

  const now = deps.clocks.forOrganisation(org.organisationId).now().toISOString();
  const command: CreateSubscription = {
    type: 'CreateSubscription',
    subscriptionId,
    firstInvoiceId: setupMode ? null : derivedId('invoice', subscriptionId, 'first'),
    now,
    organisation: { id: org.organisationId, timezone: org.settings.timezone, setupMode },
    customer:
      customer.status === 'none'
        ? { id: customerId, code: input.customerCode, status: 'active' }
        : { id: customer.customerId, code: customer.code, status: customer.status },
    plan: plan.plan,
    charges,
    request: input.request,
  };
  // Every rule is checked before the customer is created, so a refused request changes nothing.
  decideCreation(command);
  if (customer.status === 'none' && input.createCustomer) {
    await importCustomer(deps, caller, organisationRef, { code: input.customerCode, ...input.createCustomer });
  }

  const created = await handle(deps.store, subscriptionStream(subscriptionId), subscriptionDecider, command, metadata());
  if (created.state.status === 'none') throw new Error('the subscription was not recorded');
  return finish(created.state.subscription, created.position);
};
