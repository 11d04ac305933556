import { ensureBuilt, runNodeAsync, type ServiceProcess, startServiceProcess } from '../support/service-process';
import { tempDir } from '../support/test-service';

describe('the typed client example (examples/integration.ts)', () => {
  let service: ServiceProcess;
  let key: string;
  beforeAll(async () => {
    ensureBuilt();
    service = await startServiceProcess({ DATA_DIR: tempDir('integration-example') });
    key = (await service.printed(/(service_test_[0-9A-Za-z]{32})/))[1]!;
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
  });

  it('runs the first integration against a started service with its quick start key', async () => {
    const run = await runNodeAsync('examples/integration.js', [], { BILLING_URL: service.url, BILLING_API_KEY: key });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const customer = /^customer (cus_\w+)/m.exec(run.stdout)![1]!;
    const auth = { Authorization: `Bearer ${key}` };
    const invoices = (await (await fetch(`${service.url}/v1/invoices?customer=${customer}`, { headers: auth })).json()) as {
      data: { subtotal: string; lines: { revenue_type: string }[] }[];
    };
    // 5 seats at 12.0000 for a whole period; 3 more from the same day; a no_base_fee plan's first
    // invoice; usage of 1800 + 450.5 calls less 1000 included, at 0.0020: 1250.5 × 0.0020 = 2.5010.
    expect(invoices.data.map((invoice) => [invoice.lines.map((line) => line.revenue_type).join('+'), invoice.subtotal])).toEqual([
      ['usage', '2.5010'],
      ['new_subscription', '0.0000'],
      ['expansion', '36.0000'],
      ['new_subscription', '60.0000'],
    ]);
    expect(run.stdout).toContain('5 → 8 seats');
  }, 60_000);

  it('says what it needs when no API key is given', async () => {
    const run = await runNodeAsync('examples/integration.js', [], { BILLING_URL: service.url });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/Set BILLING_API_KEY/);
  });
});
