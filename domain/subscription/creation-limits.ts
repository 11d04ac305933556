import { planHasUnits } from '../catalogue/types';
import { amountOverLimit } from '../pricing/amount-limits';
import { FIRST_DATE, isDateInRange, LAST_DATE } from '../pricing/calendar';
import { parseMoney } from '../pricing/money';
import { minimumAmount, planAmount } from '../pricing/pricing';
import { DomainError } from '../shared/domain-error';
import type { SubscriptionCreatedData } from './events';

const refuse = (param: string, message: string) => new DomainError('invalid', 'invalid_parameter', message, param);

const checkDate = (param: string, date: string, what: string): void => {
  if (!isDateInRange(date)) throw refuse(param, `${param} makes ${what} ${date}; dates run from ${FIRST_DATE} to ${LAST_DATE}.`);
};

/**
 * The limits of a new subscription's computed values, checked before anything is recorded: every
 * date it states lies in the calendar range, and every amount its first invoice and its renewal
 * bill (price × units, price × quantity, their totals) fits the money limit. Each refusal names the
 * request field that took the value out of range (`raisedMeters`: the request's `meters`, in order).
 */
export const withinCreationLimits = (raisedMeters: readonly Readonly<{ meterCode: string }>[], created: SubscriptionCreatedData): SubscriptionCreatedData => {
  checkDate('start_date', created.startDate, 'a start date of');
  checkDate('start_date', created.renewalDate, 'a first renewal date of');
  if (created.endDate !== null) checkDate('end_after_cycles', created.endDate, 'an end date of');

  const plan = { type: created.pricing.planType, price: created.pricing.price, freeUnits: created.pricing.freeUnits, tiers: created.pricing.tiers };
  const fee = { param: planHasUnits(plan.type) ? 'units' : 'flat_fee_price', amount: planAmount(plan, created.units) };
  const charges = created.firstInvoiceCharges.map((charge, i) => ({
    param: `charges.${i}.quantity`,
    amount: parseMoney(charge.price) * BigInt(charge.quantity),
  }));
  const meters = created.meters.map((meter) => {
    const raised = raisedMeters.findIndex((m) => m.meterCode === meter.meterCode);
    return {
      param: raised >= 0 ? `meters.${raised}.minimum_units` : 'plan_code',
      amount: minimumAmount(meter),
    };
  });
  const problem = amountOverLimit([fee, ...charges], 'first invoice subtotal') ?? amountOverLimit([fee, ...meters], 'renewal value');
  if (problem) throw refuse(problem.param, problem.message);
  return created;
};
