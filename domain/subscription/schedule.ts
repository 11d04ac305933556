import { addDays, compareDates, type Period, periodContaining } from '../pricing/calendar';
import type { Quantity } from '../pricing/quantity';
import { type CpiPercent, parseCpiPercent, upliftPrice, upliftTiers } from '../pricing/cpi';
import type { SubscriptionEvent } from './events';
import type { ExistingSubscription, LiveStatus } from './lifecycle';
import { renewalOverLimit } from './renewal-limits';

/** The steps time takes a subscription through, in the order they run when due on the same day. */
export const STEP_KINDS = ['start', 'renewal_invoice', 'renewal', 'complete'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** The facts the schedule reads; the due-dates read model keeps the same ones. */
export type ScheduleView = Readonly<{
  status: LiveStatus;
  startDate: string;
  renewalDate: string;
  endDate: string | null;
  /** The renewal invoice for the period from `renewalDate` is raised (or was, and an end removed it). */
  renewalInvoiceRaised: boolean;
}>;

/**
 * A step due on `date`. `period` names the date it belongs to (the start date, the renewal date, the
 * end date): with the subscription's id it identifies the step, so running it twice does nothing.
 */
export type DueStep = Readonly<{ kind: StepKind; date: string; period: string }>;

export const scheduleViewOf = (state: ExistingSubscription): ScheduleView => ({
  status: state.status,
  startDate: state.subscription.startDate,
  renewalDate: state.subscription.renewalDate,
  endDate: state.life.endDate,
  renewalInvoiceRaised: state.life.renewalInvoiceId !== null || state.life.removedRenewalInvoiceId !== null,
});

const byDateThenKind = (a: DueStep, b: DueStep): number => compareDates(a.date, b.date) || STEP_KINDS.indexOf(a.kind) - STEP_KINDS.indexOf(b.kind);

/**
 * The next step of each kind and the date it falls due: a pending subscription starts on its start
 * date; the renewal invoice for the next period is raised `renewal_lead_days` before the renewal date
 * (0: on it); the subscription rolls over on its renewal date; it completes on its end date. One that
 * ends on its renewal date gets neither a renewal invoice nor a renewal. Ended and complete
 * subscriptions have nothing due.
 */
export const dueSteps = (view: ScheduleView, renewalLeadDays: number): DueStep[] => {
  if (view.status !== 'pending' && view.status !== 'active') return [];
  const steps: DueStep[] = [];
  if (view.status === 'pending') steps.push({ kind: 'start', date: view.startDate, period: view.startDate });
  const endsOnRenewal = view.endDate !== null && compareDates(view.endDate, view.renewalDate) <= 0;
  if (!endsOnRenewal) {
    if (!view.renewalInvoiceRaised) steps.push({ kind: 'renewal_invoice', date: addDays(view.renewalDate, -renewalLeadDays), period: view.renewalDate });
    steps.push({ kind: 'renewal', date: view.renewalDate, period: view.renewalDate });
  }
  if (view.endDate !== null) steps.push({ kind: 'complete', date: view.endDate, period: view.endDate });
  return steps.sort(byDateThenKind);
};

/** The period after the current one, anchored on the start date (so 31 Jan → 28/29 Feb → 31 Mar). */
export const nextPeriod = (state: ExistingSubscription): Period => {
  const { startDate, interval, renewalDate } = state.subscription;
  const next = periodContaining(startDate, interval, renewalDate);
  return { start: next.start, end: next.end };
};

/** The organisation's latest CPI, as the scheduler read it. */
export type Cpi = Readonly<{ year: number; percent: string }>;

export type RunScheduledStep = Readonly<{
  type: 'RunScheduledStep';
  step: StepKind;
  period: string;
  /** The organisation's date on its clock. */
  today: string;
  renewalLeadDays: number;
  /** In Setup Mode no invoice is raised: renewals roll over without one. */
  setupMode: boolean;
  /** The id the renewal invoice takes, derived from the subscription and the period it bills. */
  renewalInvoiceId: string;
  cpi: Cpi | null;
  /** The usage recorded for the periods from `period` on (period start → meter id → quantity): a CPI uplift reprices it. */
  usageFrom: ReadonlyMap<string, ReadonlyMap<string, Quantity>>;
}>;

/**
 * CPI for a `cpi_enabled` subscription: each year's percentage is applied once, at the first renewal
 * after it is recorded; the price, every tier and every meter rate rise by it, each rounded to 4 places.
 * An uplift that would take the renewal, or the usage already recorded for a period it prices, past
 * the money limit is withheld, and says why.
 */
const cpiUplift = (state: ExistingSubscription, cpi: Cpi | null, periodStart: string, usageFrom: RunScheduledStep['usageFrom']): SubscriptionEvent<'SubscriptionCpiUplifted'> | SubscriptionEvent<'SubscriptionCpiUpliftWithheld'> | null => {
  const { subscription, life } = state;
  if (!subscription.cpiEnabled || cpi === null || (life.cpiYear !== null && cpi.year <= life.cpiYear)) return null;
  const percent: CpiPercent | null = parseCpiPercent(cpi.percent);
  if (percent === null || percent === 0n) return null;
  const { pricing, meters } = renewalPricing(state);
  const risen = {
    price: upliftPrice(pricing.price, percent),
    tiers: upliftTiers(pricing.tiers, percent),
    meters: meters.map((meter) => ({
      meterId: meter.meterId,
      price: meter.price === null ? null : upliftPrice(meter.price, percent),
      tiers: upliftTiers(meter.tiers, percent),
    })),
  };
  const { subscriptionId } = subscription;
  const withRisen = { ...state, life: { ...life, nextPrices: risen } };
  const problem = renewalOverLimit(renewalPricing(withRisen), life.units, life.renewalAdjustments, `The CPI uplift of ${cpi.percent}%`, usageFrom);
  if (problem) return { type: 'SubscriptionCpiUpliftWithheld', data: { subscriptionId, periodStart, year: cpi.year, percent: cpi.percent, reason: problem.message } };
  return { type: 'SubscriptionCpiUplifted', data: { subscriptionId, periodStart, year: cpi.year, percent: cpi.percent, ...risen } };
};

/** The prices the next period bills at: the current ones, or those a CPI uplift set for it. */
export const renewalPricing = (state: ExistingSubscription) => {
  const { pricing, meters } = state.subscription;
  const next = state.life.nextPrices;
  if (next === null) return { pricing, meters };
  return {
    pricing: { ...pricing, price: next.price, tiers: next.tiers },
    meters: meters.map((meter) => {
      const risen = next.meters.find((m) => m.meterId === meter.meterId);
      return risen ? { ...meter, price: risen.price, tiers: risen.tiers } : meter;
    }),
  };
};

/**
 * One scheduled step, decided only when it is due on the organisation's date and not yet done:
 * anything else (run twice, by two schedulers, or after the subscription moved on) decides nothing.
 */
export const decideScheduledStep = (command: RunScheduledStep, state: ExistingSubscription): SubscriptionEvent[] => {
  const due = dueSteps(scheduleViewOf(state), command.renewalLeadDays);
  const step = due.find((s) => s.kind === command.step && s.period === command.period);
  if (!step || compareDates(step.date, command.today) > 0) return [];
  const { subscriptionId } = state.subscription;
  switch (command.step) {
    case 'start':
      return [{ type: 'SubscriptionStarted', data: { subscriptionId, startDate: state.subscription.startDate } }];
    case 'renewal_invoice': {
      if (command.setupMode) return [];
      const next = nextPeriod(state);
      const uplift = cpiUplift(state, command.cpi, next.start, command.usageFrom);
      return [
        ...(uplift ? [uplift] : []),
        {
          type: 'SubscriptionRenewalInvoiceRaised',
          data: {
            subscriptionId,
            invoiceId: command.renewalInvoiceId,
            periodStart: next.start,
            periodEnd: next.end,
            units: state.life.units,
            adjustments: [...state.life.renewalAdjustments],
          },
        },
      ];
    }
    case 'renewal': {
      // Never before the renewal invoice of the period it rolls into.
      if (!command.setupMode && due.some((s) => s.kind === 'renewal_invoice')) return [];
      const next = nextPeriod(state);
      return [{ type: 'SubscriptionRenewed', data: { subscriptionId, periodStart: next.start, renewalDate: next.end } }];
    }
    case 'complete':
      return [{ type: 'SubscriptionCompleted', data: { subscriptionId, endDate: step.period } }];
    default: {
      const exhaustive: never = command.step;
      return exhaustive;
    }
  }
};
