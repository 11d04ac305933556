import { apiKeysProjection } from './api-keys';
import { chargesProjection } from './charges';
import { creditNotesProjection } from './credit-notes';
import { customersProjection } from './customers';
import { dueDatesProjection } from './due-dates';
import { invoicesProjection } from './invoices';
import { metersProjection } from './meters';
import { organisationsProjection } from './organisations';
import { plansProjection } from './plans';
import type { Projection } from '../engine/projection';
import { revenueReportsProjection } from './revenue-reports/revenue-reports';
import { emptiedBySandboxReset } from './sandbox-reset';
import { SandboxGenerations } from './sandbox-generations';
import { subscriptionsProjection } from './subscriptions';
import { usageProjection } from './usage';
import { webhookEndpointsProjection } from './webhook-endpoints';

const generations = new SandboxGenerations();
const emptied = (projection: Projection) => emptiedBySandboxReset(projection, generations);

/** A sandbox reset empties the read models of what it removes; it keeps the organisation, its API keys and its webhook endpoints. */
export const allProjections: readonly Projection[] = [
  organisationsProjection,
  apiKeysProjection,
  emptied(customersProjection),
  emptied(metersProjection),
  emptied(plansProjection),
  emptied(chargesProjection),
  emptied(subscriptionsProjection),
  emptied(invoicesProjection),
  webhookEndpointsProjection,
  emptied(creditNotesProjection),
  emptied(usageProjection),
  emptied(dueDatesProjection),
  // Emptied by a sandbox reset, but for the history it keeps of the months before: see its own reset.
  revenueReportsProjection,
];
