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
import { subscriptionsProjection } from './subscriptions';
import { usageProjection } from './usage';
import { webhookEndpointsProjection } from './webhook-endpoints';

export const allProjections: readonly Projection[] = [
  organisationsProjection,
  apiKeysProjection,
  customersProjection,
  metersProjection,
  plansProjection,
  chargesProjection,
  subscriptionsProjection,
  invoicesProjection,
  webhookEndpointsProjection,
  creditNotesProjection,
  usageProjection,
  dueDatesProjection,
];
