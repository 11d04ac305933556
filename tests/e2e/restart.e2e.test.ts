import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, runNode, startServiceProcess } from '../support/service-process';
import { tempDir } from '../support/test-service';

describe('the real server process', () => {
  beforeAll(ensureBuilt, 120_000);

  it('keeps an organisation across a restart on the same data directory', async () => {
    const dataDir = tempDir('restart');
    const first = await startServiceProcess({ DATA_DIR: dataDir });
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    await first.printed(new RegExp(token));
    const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${first.url}/admin/v1/organisations`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Durable Ltd', timezone: 'Australia/Sydney', default_currency: 'AUD' }),
    });
    expect(created.status).toBe(201);
    const organisation = (await created.json()) as { id: string; name: string };
    // npm run admin: one operator call with the token from the data directory.
    const admin = runNode('service/cli/admin.js', ['GET', `/admin/v1/organisations/${organisation.id}`], { DATA_DIR: dataDir, ADMIN_URL: first.url });
    expect(admin.status).toBe(0);
    expect(JSON.parse(admin.stdout.replace(/^200 /, ''))).toEqual(organisation);
    const missing = runNode('service/cli/admin.js', ['GET', '/admin/v1/organisations/org_nothing'], { DATA_DIR: dataDir, ADMIN_URL: first.url });
    expect(missing.status).toBe(1);
    expect(missing.stdout).toMatch(/^404 .*organisation_not_found/);
    expect(await first.stop()).toBe(0);

    const second = await startServiceProcess({ DATA_DIR: dataDir });
    try {
      const rebuild = runNode('service/cli/rebuild-projections.js', ['--offline'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      expect(rebuild.status).toBe(3);
      expect(rebuild.stderr).toMatch(/the service \(pid \d+\) is running on .*: stop it before rebuilding offline/);
      const read = await fetch(`${second.url}/admin/v1/organisations/${organisation.id}`, { headers: auth });
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual(organisation);
    } finally {
      await second.stop();
    }
    // Read once the process has ended, so the whole of its output is there.
    expect(second.output()).not.toContain(token);
  });

  it('prints a working sandbox key and a demo catalogue on the first start only', async () => {
    const dataDir = tempDir('quickstart');
    const service = await startServiceProcess({ DATA_DIR: dataDir });
    try {
      const key = (await service.printed(/(service_test_[0-9A-Za-z]{32})/))[1];
      const auth = { Authorization: `Bearer ${key}` };
      const organisation = (await (await fetch(`${service.url}/v1/organisation`, { headers: auth })).json()) as { livemode: boolean };
      expect(organisation.livemode).toBe(false);
      const plans = (await (await fetch(`${service.url}/v1/plans`, { headers: auth })).json()) as { data: { type: string }[] };
      expect(plans.data.map((p) => p.type).sort()).toEqual(['flat_fee', 'no_base_fee', 'per_unit', 'stairstep', 'tiered', 'volume']);
      const customers = (await (await fetch(`${service.url}/v1/customers`, { headers: auth })).json()) as { data: { code: string }[] };
      expect(customers.data.map((c) => c.code)).toEqual(['ACME']);
    } finally {
      await service.stop();
    }
    const again = await startServiceProcess({ DATA_DIR: dataDir });
    await again.stop();
    expect(again.output()).not.toContain('service_test_');
  });

  it('refuses a bad environment value with one line naming the variable', async () => {
    await expect(startServiceProcess({ DATA_DIR: tempDir('badenv'), PORT: 'eighty' })).rejects.toThrow(
      /service exited with 1:\ninvalid PORT="eighty": .*\n$/,
    );
  });
});
