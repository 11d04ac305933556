import type { ReadStore } from '../../infra/read-store/port';
import { CHARGES } from '../read-models/charges';
import { CUSTOMERS } from '../read-models/customers';
import { METERS } from '../read-models/meters';
import { PLANS } from '../read-models/plans';
import { SUBSCRIPTIONS } from '../read-models/subscriptions';
import type { UsageEventIdIndex } from '../usage-ids/usage-event-ids';
import { WEBHOOK_ENDPOINTS } from '../read-models/webhook-endpoints';

/** The commands' `Lookups` port answered from these read models (eventually consistent by nature). */
export const readModelLookups = (readStore: ReadStore, usageEventIds: UsageEventIdIndex) => {
  const ofOrganisation = (organisationId: string) => ({ field: '_organisation', eq: organisationId });
  return {
    liveSubscriptionCount: (organisationId: string) =>
      readStore.count(SUBSCRIPTIONS, [ofOrganisation(organisationId), { field: 'status', in: ['pending', 'active'] }]),
    customerCount: (organisationId: string) => readStore.count(CUSTOMERS, [ofOrganisation(organisationId)]),
    metersDefined: async (organisationId: string) => (await readStore.count(METERS, [ofOrganisation(organisationId)])) > 0,
    customerWithContact: async (organisationId: string, accountingContactId: string) => {
      const [owner] = await readStore.findAll<{ id: string }>(CUSTOMERS, [
        ofOrganisation(organisationId),
        { field: 'accounting_contact_id', eq: accountingContactId },
      ]);
      return owner?.id ?? null;
    },
    usageEventHolders: (organisationId: string, subscriptionId: string, eventIds: readonly string[]) => usageEventIds.holdersOf(organisationId, subscriptionId, eventIds),
    webhookEndpointCount: (organisationId: string) => readStore.count(WEBHOOK_ENDPOINTS, [ofOrganisation(organisationId)]),
    copyable: async (organisationId: string) => {
      const ids = async (collection: string) => (await readStore.findAll(collection, [ofOrganisation(organisationId)])).map((doc) => doc.id);
      const [meters, plans, charges, customers] = await Promise.all([METERS, PLANS, CHARGES, CUSTOMERS].map(ids));
      // Which of them are pending or active, the commands decide from each subscription's stream.
      return { meters: meters!, plans: plans!, charges: charges!, customers: customers!, subscriptions: await ids(SUBSCRIPTIONS) };
    },
  };
};
