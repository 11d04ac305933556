import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describeIf, onPath } from '../support/describe-or-skip';
import { ensureBuilt, quickStartKey, type ServiceProcess, startServiceProcess } from '../support/service-process';
import { tempDir } from '../support/test-service';

const run = promisify(execFile);
const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

/** The shell block of the README's "A first integration", as a reader copies it. */
const walkthrough = /^## A first integration\n[\s\S]*?```sh\n([\s\S]*?)```/m.exec(readme)![1]!;

const describeWithCurl = describeIf(onPath('curl'), 'README WALK-THROUGH', 'no curl on PATH', 'apt-get install -y curl');

type Invoice = { lines: { revenue_type: string }[]; subtotal: string; accounting: { sync_status: string } };

describeWithCurl("the README's first integration, run with bash and curl", () => {
  let service: ServiceProcess;
  let script: string;
  beforeAll(async () => {
    ensureBuilt();
    service = await startServiceProcess({ DATA_DIR: tempDir('readme-walkthrough') });
    const key = await quickStartKey(service);
    // The reader's two edits: the service's address and the key its first start printed.
    script = walkthrough.replace(/^API=.*$/m, `API=${service.url}`).replace(/^KEY=.*$/m, `KEY=${key}`);
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
  });

  const invoicesAfterARun = async (): Promise<Invoice[]> => {
    const { stdout, stderr } = await run('bash', ['-euo', 'pipefail', '-c', script]);
    expect(stderr).toBe('');
    return (JSON.parse(stdout.trim().split('\n').at(-1)!) as { data: Invoice[] }).data;
  };

  it('raises the invoices the README says, each synced, and a second run replays the first', async () => {
    const invoices = await invoicesAfterARun();
    // Usage: 1800 + 450.5 calls less 1000 included, at 0.0020 = 2.5010; the API plan has no base
    // fee; 3 more seats at 12.0000 for the whole period = 36.0000; 5 seats at 12.0000 = 60.0000.
    expect(invoices.map((invoice) => [invoice.lines.map((line) => line.revenue_type).join('+'), invoice.subtotal, invoice.accounting.sync_status])).toEqual([
      ['usage', '2.5010', 'synced'],
      ['new_subscription', '0.0000', 'synced'],
      ['expansion', '36.0000', 'synced'],
      ['new_subscription', '60.0000', 'synced'],
    ]);
    expect(await invoicesAfterARun()).toEqual(invoices);
  }, 60_000);
});
