import type { OpenOrganisation } from '../../domain/organisation/state';
import type { SandboxCopy } from '../../domain/organisation/events';
import { resetScope } from '../../domain/organisation/rules';
import { withNeeds } from '../../domain/organisation/sandbox-copy';
import { copiedSubscription, isCopied } from '../../domain/subscription/copy';
import { derivedId } from '../../infra/ids';
import { chargeCommand } from '../plumbing/charge-command';
import { createCharge } from '../catalogue/create-charge';
import { createPlan } from '../catalogue/create-plan';
import { defineMeter } from '../catalogue/define-meter';
import { meterCommand } from '../plumbing/meter-command';
import { planCommand } from '../plumbing/plan-command';
import { customerCommand } from '../plumbing/customer-command';
import { updateCustomer } from '../customer/update-customer';
import type { CommandDeps } from '../plumbing/deps';
import type { Lookups } from '../plumbing/lookups';
import { chargeIdFor, customerIdFor, meterIdFor, planIdFor } from '../plumbing/ids-by-code';
import type { Caller } from '../plumbing/metadata';
import { subscriptionCommand } from '../plumbing/subscription-command';
import { latestPosition } from '../plumbing/positions';

export type CopyDeps = CommandDeps & Readonly<{ lookups: Lookups }>;

/**
 * The one home of copying into a sandbox, when it is opened and when it is reset: the catalogue
 * (meters, plans, charges, each with its code, definition and status), the customers (names, email
 * and code, no accounting contact: a sandbox customer gets its contact in the demonstration
 * organisation) and the pending and active subscriptions (their terms as they stand, without
 * invoices, credit notes or history), as the copy options say once ticked with what they need.
 * Reported usage is never copied. Each copy is an ordinary creation event in the sandbox, under the id its code derives
 * there, so a copy interrupted by a crash is finished by running it again.
 */
export const copyIntoSandbox = async (deps: CopyDeps, caller: Caller, live: OpenOrganisation, sandbox: OpenOrganisation, options: SandboxCopy) => {
  const copy = withNeeds(options);
  const generation = sandbox.resetGeneration;
  const ref = { id: sandbox.organisationId, livemode: false, resetGeneration: generation };
  const from = await deps.lookups.copyable(live.organisationId);
  let position = 0n;
  const made = (done: { position: bigint }) => {
    position = latestPosition(position, done.position);
  };
  if (copy.catalogue) {
    for (const id of from.meters) {
      const { state } = await meterCommand.load(deps.store, id);
      if (state.status !== 'defined' || (await meterCommand.load(deps.store, meterIdFor(ref.id, generation, state.code))).state.status !== 'none') continue;
      made(await defineMeter(deps, caller, ref, { code: state.code, name: state.name, unitLabels: state.unitLabels }));
    }
    for (const id of from.plans) {
      const { state } = await planCommand.load(deps.store, id);
      if (state.status !== 'defined' || (await planCommand.load(deps.store, planIdFor(ref.id, generation, state.plan.code))).state.status !== 'none') continue;
      const { planId: _planId, organisationId: _organisationId, meters, ...plan } = state.plan;
      made(await createPlan(deps, caller, ref, { ...plan, meters: meters.map(({ meterId: _id, name: _name, unitLabels: _labels, ...meter }) => meter) }));
    }
    for (const id of from.charges) {
      const { state } = await chargeCommand.load(deps.store, id);
      if (state.status !== 'defined') continue;
      const { chargeId: _chargeId, organisationId: _organisationId, ...charge } = state.charge;
      if ((await chargeCommand.load(deps.store, chargeIdFor(ref.id, generation, charge.code))).state.status === 'none') made(await createCharge(deps, caller, ref, charge));
    }
  }
  const copiedCustomerId = (liveCustomerId: string, code: string | null) =>
    code === null ? derivedId('customer', ref.id, ...resetScope(generation), 'copy', liveCustomerId) : customerIdFor(ref.id, generation, code);
  if (copy.customers) {
    for (const id of from.customers) {
      const { state } = await customerCommand.load(deps.store, id);
      if (state.status === 'none') continue;
      const customerId = copiedCustomerId(id, state.code);
      made(await customerCommand(deps, customerId, {
        type: 'ImportCustomer',
        customerId,
        organisationId: ref.id,
        code: state.code,
        name: state.name,
        firstName: null,
        lastName: null,
        email: state.email,
        accountingContactId: null,
        source: 'sandbox_copy',
      }, caller, ref));
      if (state.status === 'inactive') made(await updateCustomer(deps, caller, ref, customerId, { status: 'inactive' }));
    }
  }
  if (copy.subscriptions) {
    for (const id of from.subscriptions) {
      const { state } = await subscriptionCommand.load(deps.store, id);
      if (!isCopied(state)) continue;
      const plan = (await planCommand.load(deps.store, state.subscription.planId)).state;
      if (plan.status !== 'defined') continue;
      const subscriptionId = derivedId('subscription', ref.id, ...resetScope(generation), 'copy', id);
      const target = {
        subscriptionId,
        organisationId: ref.id,
        resetGeneration: generation,
        customerId: copiedCustomerId(state.subscription.customerId, state.subscription.customerCode),
        planId: planIdFor(ref.id, generation, plan.plan.code),
        meterIds: new Map(state.subscription.meters.map((meter) => [meter.meterCode, meterIdFor(ref.id, generation, meter.meterCode)])),
      };
      made(await subscriptionCommand(deps, subscriptionId, { type: 'CopySubscription', subscription: copiedSubscription(state, target) }, caller, ref));
    }
  }
  return { position };
};
