import type { PlanDefinition } from '../catalogue/types';
import { planHasUnits } from '../catalogue/types';
import type { AccountingDocumentStatus } from '../invoice/events';
import type { OpenOrganisation } from '../organisation/state';
import { inSetupMode } from '../organisation/rules';
import { daysBetween } from '../pricing/calendar';
import { formatMoney, max, type Money, parseMoney } from '../pricing/money';
import { amountOverLimit } from '../pricing/amount-limits';
import { planAmount, type PlanPricing } from '../pricing/pricing';
import { prorateChange } from '../pricing/proration';
import { DomainError } from '../shared/domain-error';
import type { ChangeDocument, ProrationBehaviour, SubscriptionUnitsChangedData } from './lifecycle-events';
import type { ExistingSubscription } from './lifecycle';
import { renewalOverLimit } from './renewal-limits';
import { nextPeriod, renewalPricing } from './schedule';

export const MAX_UNITS = 999_999_999;

/**
 * The renewal invoice as a unit change's handler found it: not raised yet (a crash between recording
 * it on the subscription and raising it), removed here, never pushed, held by an accounting
 * organisation the organisation no longer uses, or its status in the one it uses; and what the lines
 * an amendment keeps (all but its renewal line) amount to.
 */
export type RenewalInvoiceFacts = Readonly<{ standing: 'not_raised' | 'removed' | 'not_pushed' | 'elsewhere' | AccountingDocumentStatus; kept: Money }>;

/**
 * Why `amend` cannot rewrite the renewal invoice, or null where it can: the accounting system changes
 * the lines of a draft (or one awaiting approval) only, and only in the accounting organisation that
 * holds it; one never pushed is changed here alone.
 */
export const whyNotAmendable = (renewal: RenewalInvoiceFacts): string | null => {
  switch (renewal.standing) {
    case 'not_pushed':
    case 'draft':
    case 'awaiting_approval':
      return null;
    case 'not_raised':
      return 'The renewal invoice is being raised.';
    case 'removed':
      return 'The renewal invoice was removed.';
    case 'elsewhere':
      return 'The renewal invoice is in an accounting organisation this organisation no longer uses, where it cannot be changed.';
    default:
      return `The renewal invoice is ${renewal.standing} in the accounting system and can no longer be changed.`;
  }
};

/** A unit change with what its handler loaded: the plan (for its minimum) and the renewal invoice, when one exists. */
export type ChangeUnits = Readonly<{
  type: 'ChangeUnits';
  changeId: string;
  now: string;
  organisation: OpenOrganisation;
  plan: PlanDefinition | null;
  /** Ids for the documents the change may raise, derived from the change. */
  invoiceId: string;
  creditNoteId: string;
  renewalInvoice: RenewalInvoiceFacts | null;
  request: Readonly<{
    units: number;
    prorate: boolean;
    prorationBehaviour: ProrationBehaviour | null;
    effectiveDate: string | null;
    document: ChangeDocument | null;
  }>;
}>;

const refuse = (code: string, message: string, param: string) => new DomainError('invalid', code, message, param);

/** `422 document_not_available`: the `document` sent cannot be had; the message says why. */
export const documentNotAvailable = (message: string): DomainError => refuse('document_not_available', message, 'document');

const planPricing = (pricing: ExistingSubscription['subscription']['pricing']): PlanPricing => ({
  type: pricing.planType,
  price: pricing.price,
  freeUnits: pricing.freeUnits,
  tiers: pricing.tiers,
});

export const pricingOf = (state: ExistingSubscription): PlanPricing => planPricing(state.subscription.pricing);

/**
 * `document: separate` once the renewal invoice exists: the next period's whole-period difference
 * between the new units and those it is already billed at (the renewal invoice's, or the last
 * separate change's), at the prices the renewal invoice used (a CPI uplift's included).
 */
const nextPeriodDifference = (state: ExistingSubscription, units: number): NonNullable<SubscriptionUnitsChangedData['nextPeriod']> => {
  const prices = planPricing(renewalPricing(state).pricing);
  const billedUnits = state.life.nextPeriodUnits ?? state.life.units;
  const period = nextPeriod(state);
  return { start: period.start, end: period.end, billedUnits, amount: formatMoney(planAmount(prices, units) - planAmount(prices, billedUnits)) };
};

/**
 * The renewal at the new units within the money limit, at today's prices and at those a CPI uplift
 * set for the next period, with the prorated charges it carries (`carried`): every document the
 * change raises bills part of it, so nothing past the limit is ever invoiced.
 */
const checkRenewal = (state: ExistingSubscription, units: number, carried: ExistingSubscription['life']['renewalAdjustments']): void => {
  for (const prices of [state.subscription, renewalPricing(state)]) {
    const problem = renewalOverLimit(prices, units, carried, 'units');
    if (problem) throw refuse('invalid_parameter', problem.message, 'units');
  }
};

const positive = (amount: string | null | undefined): Money => (amount ? max(parseMoney(amount), 0n) : 0n);

/**
 * What the change bills within the money limit: the invoice it raises now (this period's prorated
 * increase charged at once, the next period's difference), the renewal invoice an amendment rewrites
 * (the next period at the new units, the lines it keeps, the increase it adds), or the renewal
 * invoice a `charge_on_renewal` increase is carried to.
 */
const checkDocuments = (state: ExistingSubscription, command: ChangeUnits, change: SubscriptionUnitsChangedData): void => {
  const billed = (amounts: readonly Money[], total: string) => {
    const problem = amountOverLimit(amounts.map((amount) => ({ param: 'units', amount })), total);
    if (problem) throw refuse('invalid_parameter', problem.message, 'units');
  };
  if (change.document === 'amend') {
    billed([planAmount(planPricing(renewalPricing(state).pricing), change.units), command.renewalInvoice?.kept ?? 0n, positive(change.renewalAdjustment)], 'amended renewal invoice subtotal');
  } else if (change.renewalAdjustment !== null) {
    checkRenewal(state, change.units, [...state.life.renewalAdjustments, { changeId: change.changeId, amount: change.renewalAdjustment }]);
  }
  if (change.invoiceId !== null) {
    billed([change.renewalAdjustment === null ? positive(change.proration?.amount) : 0n, positive(change.nextPeriod?.amount)], 'invoice subtotal');
  }
};

/**
 * Every rule of `POST /v1/subscriptions/{id}/units`, in the order of the API document's table of unit
 * change errors, then its document refusals; and the facts of the change: proration by days from the
 * effective date to the renewal date, of the difference of whole-period prices (so a volume or
 * stairstep plan crossing into a cheaper band credits although units went up).
 */
const decideChange = (command: ChangeUnits, state: ExistingSubscription): SubscriptionUnitsChangedData => {
  const { request } = command;
  const { subscription, life } = state;
  const units = request.units;
  if (!Number.isInteger(units) || units < 0 || units > MAX_UNITS) {
    throw refuse('units_invalid', `units is a whole number from 0 to ${MAX_UNITS}.`, 'units');
  }
  const hasUnits = planHasUnits(subscription.pricing.planType);
  const minimum = Math.max(command.plan?.minimumUnits ?? 0, subscription.minimumUnits);
  if (hasUnits && units < minimum) throw refuse('units_below_minimum', `units must be at least ${minimum}.`, 'units');
  if (units === life.units) throw refuse('units_unchanged', `The subscription already has ${units} units.`, 'units');
  if (!hasUnits) throw refuse('plan_has_no_units', `A ${subscription.pricing.planType} plan takes no units.`, 'units');
  checkRenewal(state, units, life.renewalAdjustments);
  if (request.prorate && request.effectiveDate === null) {
    throw refuse('effective_date_required', 'effective_date is required to prorate.', 'effective_date');
  }
  const periodStart = subscription.currentPeriodStart;
  const renewalDate = subscription.renewalDate;
  if (request.effectiveDate !== null && (request.effectiveDate < periodStart || request.effectiveDate >= renewalDate)) {
    throw refuse(
      'effective_date_out_of_period',
      `effective_date must be inside the current billing period, ${periodStart} to ${renewalDate} (exclusive).`,
      'effective_date',
    );
  }
  const pricing = pricingOf(state);
  const renewalInvoiceExists = life.renewalInvoiceId !== null;
  // Before the renewal invoice exists a decrease without proration simply takes effect at renewal;
  // once it exists at the old units, lowering what it charges is a credit, so it must be prorated.
  if (!request.prorate && renewalInvoiceExists && planAmount(pricing, units) < planAmount(pricing, life.units)) {
    throw refuse('proration_required', 'This change lowers the amount payable and raises a credit note: send prorate: true.', 'prorate');
  }
  if (request.prorationBehaviour !== null && !request.prorate) {
    throw refuse('proration_behaviour_not_applicable', 'proration_behaviour applies only with prorate: true.', 'proration_behaviour');
  }
  if (inSetupMode(command.organisation)) throw refuse('setup_mode_on', 'The organisation is in Setup Mode: units cannot be changed.', 'units');
  if (state.status === 'ended' || state.status === 'complete') {
    throw refuse('subscription_not_changeable', `The subscription is ${state.status}.`, 'id');
  }
  if (request.document !== null && !renewalInvoiceExists) {
    throw documentNotAvailable('document applies only once the renewal invoice exists; it does not yet.');
  }
  const notAmendable =
    (command.renewalInvoice && whyNotAmendable(command.renewalInvoice)) ??
    (life.nextPeriodBilledSeparately ? 'A separate document already bills part of the next period; amending the renewal invoice would bill it twice.' : null);
  if (request.document === 'amend' && notAmendable) throw documentNotAvailable(`${notAmendable} Send document: separate.`);

  const base = {
    subscriptionId: subscription.subscriptionId,
    changeId: command.changeId,
    changedAt: command.now,
    previousUnits: life.units,
    units,
    prorate: request.prorate,
    periodStart,
    renewalDate,
  };
  // Once the renewal invoice exists: amend it, or bill the change separately (the organisation's setting when omitted).
  const document: ChangeDocument | null = renewalInvoiceExists
    ? (request.document ?? (command.organisation.settings.unitChangeDocument === 'amend' && !notAmendable ? 'amend' : 'separate'))
    : null;
  const next = document === 'separate' ? nextPeriodDifference(state, units) : null;
  const nextAmount = next ? parseMoney(next.amount) : 0n;
  // A credit reduces the renewal invoice when it credits the next period, else the latest invoice raised.
  const creditedInvoiceId = nextAmount < 0n ? life.renewalInvoiceId : (life.invoiceIds.at(-1) ?? null);
  if (!request.prorate || request.effectiveDate === null) {
    return {
      ...base,
      prorationBehaviour: null,
      effectiveDate: request.effectiveDate,
      // amend: the renewal invoice bills the next period at the new units; separate: a document of its
      // own bills the next period's difference; before the renewal invoice, nothing is billed now.
      document,
      periodUnits: life.periodUnits,
      proration: null,
      invoiceId: nextAmount > 0n ? command.invoiceId : null,
      creditNoteId: nextAmount < 0n ? command.creditNoteId : null,
      creditedInvoiceId: nextAmount < 0n ? creditedInvoiceId : null,
      renewalAdjustment: null,
      nextPeriod: next,
    };
  }
  const behaviour = request.prorationBehaviour ?? 'charge_immediately';
  const daysInPeriod = daysBetween(periodStart, renewalDate);
  const daysLeft = daysBetween(request.effectiveDate, renewalDate);
  const previous = life.proration?.periodStart === periodStart ? BigInt(life.proration.numerator) : 0n;
  const { numerator, amount } = prorateChange({
    previousNumerator: previous,
    before: planAmount(pricing, life.periodUnits),
    after: planAmount(pricing, units),
    daysLeft,
    daysInPeriod,
  });
  // charge_on_renewal once the renewal invoice exists and is not amended: that invoice is out, so the
  // charge rides on the separate invoice raised now rather than on the renewal invoice a period later.
  const deferred = document === 'amend' || (behaviour === 'charge_on_renewal' && document !== 'separate');
  const charges = (amount > 0n && !deferred) || nextAmount > 0n;
  // A credit is never deferred: it is a credit note at once, whatever the behaviour.
  const credits = amount < 0n || nextAmount < 0n;
  return {
    ...base,
    prorationBehaviour: behaviour,
    effectiveDate: request.effectiveDate,
    document,
    periodUnits: units,
    proration: { daysLeft, daysInPeriod, numerator: numerator.toString(), amount: formatMoney(amount) },
    invoiceId: charges ? command.invoiceId : null,
    creditNoteId: credits ? command.creditNoteId : null,
    creditedInvoiceId: credits ? creditedInvoiceId : null,
    renewalAdjustment: amount > 0n && deferred ? formatMoney(amount) : null,
    nextPeriod: next,
  };
};

/** A unit change decided (`decideChange`) and checked against the money limit for every document it bills. */
export const decideUnitChange = (command: ChangeUnits, state: ExistingSubscription): SubscriptionUnitsChangedData => {
  const change = decideChange(command, state);
  checkDocuments(state, command, change);
  return change;
};
