import type { Request, Router } from 'express';
import { DateTime } from 'luxon';
import { awaitSync } from '../../../commands/accounting/await-sync';
import { changeUnits } from '../../../commands/subscription/change-units';
import { endSubscription } from '../../../commands/subscription/end-subscription';
import type { LifecycleContext } from '../../../commands/subscription/load-subscription';
import { restoreSubscription } from '../../../commands/subscription/restore-subscription';
import { subscriptionAsOf } from '../../../projections/queries/as-of';
import type { OrganisationDoc } from '../../../projections/read-models/organisations';
import type { ApiDeps } from '../../deps';
import { ApiError, invalidParameter } from '../../errors';
import { CREDIT_NOTE_READ, CUSTOMER_READ, getObject, INVOICE_READ, listObjects, PLAN_READ, SUBSCRIPTION_READ } from '../../object-reads';
import { publicView } from '../../paging';
import { changeUnitsBody, endSubscriptionBody, toChangeUnitsRequest, toEndRequest } from '../../schemas/lifecycle';
import { parseOrThrow } from '../../validation';
import type { FormState } from '../format';
import { command, page, type PageLoader } from '../page';
import { consoleCaller } from '../session';
import { organisationOf, organisationPath } from './organisation';
import { historyOf } from './history';
import { formQuery } from './paging';

/** A date-time typed in the organisation's timezone (minutes, or seconds), as the instant it names. */
const instantIn = (typedValue: string, timezone: string): Date => {
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?$/.test(typedValue) ? DateTime.fromISO(typedValue, { zone: timezone }) : null;
  if (!at?.isValid) throw invalidParameter('as_of', `As of must be a date and time such as 2026-03-15T10:30 (in ${timezone}); received ${typedValue}.`);
  return at.toJSDate();
};

const asOfView = async (deps: ApiDeps, organisation: OrganisationDoc, id: string, typedValue: string) => {
  const instant = instantIn(typedValue, organisation.timezone);
  const found = await subscriptionAsOf(deps.store, deps.readStore, organisation.id, id, instant);
  return {
    heading: `As of ${typedValue.replace('T', ' ')} ${organisation.timezone}`,
    instant: instant.toISOString(),
    subscription: found ? { ...publicView(found), invoices: found.invoices.map(publicView) } : null,
  };
};

export const subscriptionPages = (router: Router, deps: ApiDeps): void => {
  const path = '/organisations/:org/subscriptions/:id';
  const subscriptionPage: PageLoader = async (req, form: FormState | null) => {
    const organisation = await organisationOf(deps, req);
    const id = req.params.id as string;
    const subscription = await getObject<Record<string, unknown> & { customer: string; plan: string }>(deps, SUBSCRIPTION_READ, organisation.id, id);
    const [customer, plan, invoices, creditNotes, history] = await Promise.all([
      getObject(deps, CUSTOMER_READ, organisation.id, subscription.customer).catch(() => null),
      getObject(deps, PLAN_READ, organisation.id, subscription.plan).catch(() => null),
      listObjects(deps, INVOICE_READ, organisation.id, { limit: 100, subscription: id }),
      listObjects(deps, CREDIT_NOTE_READ, organisation.id, { limit: 100, subscription: id }),
      historyOf(deps, organisation.id, id, req),
    ]);
    const typedAsOf = typeof req.query.as_of === 'string' && req.query.as_of !== '' ? req.query.as_of : null;
    let asOf = null;
    let asOfForm = form;
    if (typedAsOf) {
      try {
        asOf = await asOfView(deps, organisation, id, typedAsOf);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        asOfForm = { form: 'as-of', error: error.message, values: { as_of: typedAsOf } };
      }
    }
    return {
      view: 'subscription',
      title: `Subscription ${id}`,
      organisation,
      data: { subscription, customer, plan, invoices: invoices.data, creditNotes: creditNotes.data, history, asOf, typedAsOf, form: asOfForm },
    };
  };
  page(router, path, subscriptionPage);

  const context = (req: Request, organisationId: string): LifecycleContext => ({ organisationId, apiKeyId: req.session.operator!, idempotencyKey: null });
  const lifecycle = (action: string, form: string, run: (req: Request, organisationId: string, id: string) => Promise<{ notice: string }>) =>
    command(router, `${path}/${action}`, form, subscriptionPage, async (req) => {
      const organisation = await organisationOf(deps, req);
      const id = req.params.id as string;
      await getObject(deps, SUBSCRIPTION_READ, organisation.id, id);
      const { notice } = await run(req, organisation.id, id);
      return { notice, redirect: organisationPath(organisation.id, `/subscriptions/${id}`) };
    });

  lifecycle('units', 'change-units', async (req, organisationId, id) => {
    const fields = formQuery(req.body, ['units', 'effective_date', 'proration_behaviour', 'document']);
    const body = parseOrThrow(changeUnitsBody, { ...fields, units: fields.units === undefined ? undefined : Number(fields.units), prorate: formQuery(req.body).prorate === 'on' });
    const { change, position } = await changeUnits(deps, consoleCaller(req), context(req, organisationId), id, toChangeUnitsRequest(body));
    await deps.waitForProjections(await awaitSync(deps.store, position, { invoiceIds: [change.invoiceId], creditNoteIds: [change.creditNoteId] }, deps.accountingPushWaitMs));
    const document = change.invoiceId ? `; invoice ${change.invoiceId} raised` : change.creditNoteId ? `; credit note ${change.creditNoteId} raised` : '';
    return { notice: `Units changed from ${change.previousUnits} to ${change.units}${document}.` };
  });

  lifecycle('end', 'end-subscription', async (req, organisationId, id) => {
    const fields = formQuery(req.body);
    const flag = (name: string) => fields[name] === 'on';
    const body = parseOrThrow(endSubscriptionBody, {
      when: fields.when,
      delete_unsent_invoices: flag('delete_unsent_invoices'),
      void_approved_invoices: flag('void_approved_invoices'),
      invoice_usage_now: flag('invoice_usage_now'),
    });
    const { position, creditNoteIds } = await endSubscription(deps, consoleCaller(req), context(req, organisationId), id, toEndRequest(body));
    await deps.waitForProjections(await awaitSync(deps.store, position, { creditNoteIds }, deps.accountingPushWaitMs));
    return { notice: body.when === 'now' ? 'Subscription ended.' : 'Subscription set to end at its renewal date.' };
  });

  lifecycle('restore', 'restore', async (req, organisationId, id) => {
    const { position, invoiceIds } = await restoreSubscription(deps, consoleCaller(req), context(req, organisationId), id);
    await deps.waitForProjections(await awaitSync(deps.store, position, { invoiceIds }, deps.accountingPushWaitMs));
    return { notice: 'Subscription restored.' };
  });

};
