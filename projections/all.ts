import { apiKeysProjection } from './api-keys';
import { chargesProjection } from './charges';
import { creditNotesProjection } from './credit-notes';
import { customersProjection } from './customers';
import { dueDatesProjection } from './due-dates';
import { invoicesProjection } from './invoices';
import { metersProjection } from './meters';
import { organisationsProjection } from './organisations';
import { plansProjection } from './plans';
import type { Projection } from './projection';
import { emptiedBySandboxReset } from './sandbox-reset';
import { subscriptionsProjection } from './subscriptions';
import { usageProjection } from './usage';
import { webhookEndpointsProjection } from './webhook-endpoints';

/** A sandbox reset empties the read models of what it removes; it keeps the organisation, its API keys and its webhook endpoints. */
export const allProjections: readonly Projection[] = [
  organisationsProjection,
  apiKeysProjection,
  emptiedBySandboxReset(customersProjection),
  emptiedBySandboxReset(metersProjection),
  emptiedBySandboxReset(plansProjection),
  emptiedBySandboxReset(chargesProjection),
  emptiedBySandboxReset(subscriptionsProjection),
  emptiedBySandboxReset(invoicesProjection),
  webhookEndpointsProjection,
  emptiedBySandboxReset(creditNotesProjection),
  emptiedBySandboxReset(usageProjection),
  emptiedBySandboxReset(dueDatesProjection),
];
