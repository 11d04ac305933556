import { CREATE_CUSTOMER_PARAMS } from '../../domain/customer/import';
import { invoiceDecider } from '../../domain/invoice/decider';
import { firstInvoice } from '../../domain/invoice/first-invoice';
import type { OpenOrganisation } from '../../domain/organisation/state';
import { resetScope } from '../../domain/organisation/rules';
import { requireSameRequest } from '../../domain/shared/idempotency';
import { countsNeeded, type CreateSubscription } from '../../domain/subscription/create';
import { type SubscriptionCreatedData, subscriptionStream } from '../../domain/subscription/events';
import { derivedId } from '../../infra/ids';
import { chargeCommand } from '../plumbing/charge-command';
import { customerCommand } from '../plumbing/customer-command';
import { invoiceCommand } from '../plumbing/invoice-command';
import { loadOpenOrganisation } from '../plumbing/load-open-organisation';
import { planCommand } from '../plumbing/plan-command';
import { subscriptionCommand } from '../plumbing/subscription-command';
import { type CustomerInput, importCustomerInto, type ImportDeps } from '../customer/import-customer';
import { customerIdFor, planIdFor } from '../plumbing/ids-by-code';
import { type Caller, refOf } from '../plumbing/metadata';
import { latestPosition } from '../plumbing/positions';

export type CreateSubscriptionInput = Readonly<{
  customerCode: string;
  createCustomer: Omit<CustomerInput, 'code'> | null;
  planCode: string;
  charges: readonly { chargeId: string; quantity: number; price: string | null; applyDiscount: boolean }[];
  request: CreateSubscription['request'];
}>;

/**
 * Raises the first invoice if it is not yet raised; the accounting sync worker pushes it (a job derived from its event).
 * Its id derives from the subscription's, so for a subscription this request created the stream cannot exist yet: it is
 * not read (were it somehow there, the append's `no_stream` check would refuse and the retry would read it).
 */
const finish = async (deps: ImportDeps, caller: Caller, org: OpenOrganisation, subscription: SubscriptionCreatedData, position: bigint, createdNow: boolean) => {
  const { subscriptionId, firstInvoiceId: invoiceId } = subscription;
  if (!invoiceId) return { subscriptionId, invoiceId, position };
  const raised = firstInvoice({
    subscription,
    lineIds: [null, ...subscription.firstInvoiceCharges].map((_, i) => derivedId('invoiceLine', invoiceId, String(i))),
    now: deps.clocks.forOrganisation(org.organisationId).now().toISOString(),
    paymentTermsDays: org.settings.paymentTermsDays,
  });
  const organisation = refOf(org);
  const none = createdNow ? { state: invoiceDecider.initialState(), revision: 'no_stream' as const } : undefined;
  const recorded = await invoiceCommand(deps, invoiceId, { type: 'RaiseInvoice', ...raised }, caller, organisation, undefined, none);
  return { subscriptionId, invoiceId, position: latestPosition(position, recorded.position) };
};

/**
 * The subscription's id derives from the API key and the Idempotency-Key, so a key reused after its
 * 24 hours finds the old subscription: answered again only to the same request, whose fingerprint
 * its first event holds (one recorded before fingerprints were kept cannot be compared).
 */
const refuseAnotherRequest = async (deps: ImportDeps, subscriptionId: string, requestFingerprint: string) => {
  const [first] = await deps.store.readStream(subscriptionStream(subscriptionId), 0, 1);
  requireSameRequest(first?.metadata.requestFingerprint, requestFingerprint);
};

/**
 * `POST /v1/subscriptions`: loads what the request names, lets the subscription decider check every
 * rule, creates the customer when asked (only once every rule has passed), records the subscription
 * under an id derived from the API key and the Idempotency-Key, raises its first invoice under an id
 * derived from the subscription's (which the accounting sync worker pushes). Run again after a crash,
 * it finds what was done and finishes the rest.
 */
export const createSubscription = async (
  deps: ImportDeps,
  caller: Caller,
  context: { organisationId: string; apiKeyId: string; idempotencyKey: string; requestFingerprint: string },
  input: CreateSubscriptionInput,
) => {
  const org = await loadOpenOrganisation(deps.store, context.organisationId);
  const subscriptionId = derivedId('subscription', context.apiKeyId, context.idempotencyKey, ...resetScope(org.resetGeneration));
  const organisation = refOf(org);

  const existing = await subscriptionCommand.load(deps.store, subscriptionId);
  if (existing.state.status !== 'none') {
    await refuseAnotherRequest(deps, subscriptionId, context.requestFingerprint);
    return { ...(await finish(deps, caller, org, existing.state.subscription, 0n, false)), replayed: true };
  }

  const needed = countsNeeded(org);
  const [liveSubscriptions, metersDefined, plan, charges, customer] = await Promise.all([
    needed.liveSubscriptions ? deps.lookups.liveSubscriptionCount(org.organisationId) : 0,
    needed.metersDefined ? deps.lookups.metersDefined(org.organisationId) : false,
    planCommand.load(deps.store, planIdFor(org.organisationId, org.resetGeneration, input.planCode)),
    Promise.all(input.charges.map((wanted) => chargeCommand.load(deps.store, wanted.chargeId))),
    customerCommand.load(deps.store, customerIdFor(org.organisationId, org.resetGeneration, input.customerCode)),
  ]);
  const command: CreateSubscription = {
    type: 'CreateSubscription',
    subscriptionId,
    firstInvoiceId: derivedId('invoice', subscriptionId, 'first'),
    now: deps.clocks.forOrganisation(org.organisationId).now().toISOString(),
    organisation: org,
    counts: { liveSubscriptions, metersDefined },
    planCode: input.planCode,
    plan: plan.state.status === 'defined' ? plan.state.plan : null,
    charges: input.charges.map((wanted, i) => {
      const found = charges[i]!.state;
      return { ...wanted, charge: found.status === 'defined' ? found.charge : null };
    }),
    customer:
      customer.state.status === 'none'
        ? { status: 'none', id: customerIdFor(org.organisationId, org.resetGeneration, input.customerCode), code: input.customerCode, createRequested: input.createCustomer !== null }
        : { status: customer.state.status, id: customer.state.customerId, code: customer.state.code },
    request: input.request,
  };

  // The decider has checked every rule when this runs, so a refused request creates no customer.
  const createCustomer = async () => {
    if (command.customer.status === 'none' && input.createCustomer) {
      await importCustomerInto(deps, caller, org, { code: input.customerCode, ...input.createCustomer }, {
        requester: 'api',
        params: CREATE_CUSTOMER_PARAMS,
      });
    }
  };
  const recordingFingerprint = { ...caller, requestFingerprint: context.requestFingerprint };
  const created = await subscriptionCommand(deps, subscriptionId, command, recordingFingerprint, organisation, createCustomer, existing);
  if (created.state.status === 'none') throw new Error('the subscription was not recorded');
  return { ...(await finish(deps, caller, org, created.state.subscription, created.position, created.events.length > 0)), replayed: false };
};
