import { apiKeysProjection } from './api-keys';
import { chargesProjection } from './charges';
import { creditNotesProjection } from './credit-notes';
import { customersProjection } from './customers';
import { invoicesProjection } from './invoices';
import { metersProjection } from './meters';
import { organisationsProjection } from './organisations';
import { plansProjection } from './plans';
import type { Projection } from './projection';
import { emptiedBySandboxReset } from './sandbox-reset';
import { subscriptionsProjection } from './subscriptions';
import { usageProjection } from './usage';
import { webhookEndpointsProjection } from './webhook-endpoints';

/** A sandbox reset empties these; it keeps the organisation, its API keys and its webhook endpoints. */
const emptiedByReset = new Set<Projection>([
  customersProjection,
  metersProjection,
  plansProjection,
  chargesProjection,
  subscriptionsProjection,
  invoicesProjection,
  creditNotesProjection,
  usageProjection,
]);

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
].map((projection) => (emptiedByReset.has(projection) ? emptiedBySandboxReset(projection) : projection));
