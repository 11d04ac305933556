import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, startServiceProcess } from '../support/service-process';
import { tempDir } from '../support/test-service';

describe('the real server process', () => {
  beforeAll(ensureBuilt, 120_000);

  it('keeps an organisation across a restart on the same data directory', async () => {
    const dataDir = tempDir('restart');
    const first = await startServiceProcess({ DATA_DIR: dataDir });
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    expect(first.output()).toContain(token);
    const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${first.url}/admin/v1/organisations`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Durable Ltd', timezone: 'Australia/Sydney', default_currency: 'AUD' }),
    });
    expect(created.status).toBe(201);
    const organisation = (await created.json()) as { id: string; name: string };
    expect(await first.stop()).toBe(0);

    const second = await startServiceProcess({ DATA_DIR: dataDir });
    try {
      expect(second.output()).not.toContain(token);
      const read = await fetch(`${second.url}/admin/v1/organisations/${organisation.id}`, { headers: auth });
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual(organisation);
    } finally {
      await second.stop();
    }
  });

  it('refuses a bad environment value with one line naming the variable', async () => {
    await expect(startServiceProcess({ DATA_DIR: tempDir('badenv'), PORT: 'eighty' })).rejects.toThrow(
      /service exited with 1:\ninvalid PORT="eighty": .*\n$/,
    );
  });
});
