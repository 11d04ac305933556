import { planBodies } from './catalogue-fixtures';
import type { serviceClient } from './service-client';

/** The environment of a service process whose workers deliver webhooks to a receiver on loopback and retry within seconds. */
export const deliveringEnv = (dataDir: string, adminToken: string, accountingUrl: string): Record<string, string> => ({
  DATA_DIR: dataDir,
  ADMIN_TOKEN: adminToken,
  ACCOUNTING_URL: accountingUrl,
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  WEBHOOK_RETRY_SCHEDULE: '0.5,1,1,1,1,1,1,1',
  LOG_LEVEL: 'info',
});

/** A live organisation of a service process, connected to the accounting system with its accounts mapped, the flat plan and the customer C1. */
export const connectedOrganisation = async (call: ReturnType<typeof serviceClient>, name: string, timezone = 'Europe/London') => {
  const org = (await call('POST', '/admin/v1/organisations', { name, timezone, default_currency: 'GBP' })).body.id as string;
  const tenant = (await call('POST', `/admin/v1/organisations/${org}/accounting/connect`, {})).body.tenant_id as string;
  await call('PUT', `/admin/v1/organisations/${org}/accounting/accounts`, { revenue: '200', usage_revenue: '270' });
  if ((await call('POST', `/admin/v1/organisations/${org}/plans`, planBodies.flat_fee)).status !== 201) throw new Error('the flat plan was not made');
  if ((await call('POST', `/admin/v1/organisations/${org}/customers`, { code: 'C1', name: 'Customer One' })).status !== 201) throw new Error('the customer was not made');
  return { org, tenant };
};
