import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../infra/config';
import { DataDirectoryInUse, lockDataDirectory } from '../../infra/service-lock';
import { ensureBuilt, runNode, startServiceProcess } from '../support/service-process';
import { tempDir } from '../support/test-service';

const holderPid = (dataDir: string): number => Number(readFileSync(join(dataDir, 'service.pid'), 'utf8').split('\n')[0]);

describe('class 8: one process per data directory', () => {
  beforeAll(ensureBuilt, 120_000);

  it('refuses a second lock in the same process, naming the holder, and frees it on release', () => {
    const dataDir = tempDir('lock');
    const lock = lockDataDirectory(dataDir, 'service');
    expect(() => lockDataDirectory(dataDir, 'projections:rebuild')).toThrow(DataDirectoryInUse);
    expect(() => lockDataDirectory(dataDir, 'projections:rebuild')).toThrow(`the service (pid ${process.pid}) is running on ${dataDir}`);
    lock.release();
    lockDataDirectory(dataDir, 'projections:rebuild').release();
  });

  it('stops a second service before it touches anything, keeps naming the first, and survives a kill -9 of the holder', async () => {
    const dataDir = tempDir('second');
    const first = await startServiceProcess({ DATA_DIR: dataDir });
    const pid = holderPid(dataDir);
    try {
      const port = new URL(first.url).port;
      await expect(startServiceProcess({ DATA_DIR: dataDir, PORT: port })).rejects.toThrow(
        new RegExp(`service exited with 3:\\ncannot start: the service \\(pid ${pid}\\) is running on .* since `),
      );
      await expect(startServiceProcess({ DATA_DIR: dataDir })).rejects.toThrow(/service exited with 3/);
      // On a free data directory, a port in use is a sentence and exit 1, never a TypeError.
      await expect(startServiceProcess({ DATA_DIR: tempDir('port-taken'), PORT: port })).rejects.toThrow(
        new RegExp(`service exited with 1:[^]*cannot start: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use\\n$`),
      );
      expect(holderPid(dataDir)).toBe(pid);
      // Offline (a rebuild without --offline runs in the service, beside its live read models).
      const rebuild = runNode('service/cli/rebuild-projections.js', ['--offline'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      expect(rebuild.status).toBe(3);
      expect(rebuild.stderr).toContain(`the service (pid ${pid}) is running on ${dataDir}`);
      expect((await fetch(`${first.url}/v1/openapi.json`)).status).toBe(200);
    } finally {
      process.kill(pid, 'SIGKILL');
      await first.stop().catch(() => undefined);
    }
    // The operating system released the lock with the killed process: nothing is wedged.
    const next = await startServiceProcess({ DATA_DIR: dataDir });
    expect(holderPid(dataDir)).not.toBe(pid);
    expect(await next.stop()).toBe(0);
    const rebuild = runNode('service/cli/rebuild-projections.js', [], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(rebuild.status).toBe(0);
  });
});

describe('class 9: the service listens on loopback unless HOST says otherwise', () => {
  beforeAll(ensureBuilt, 120_000);

  it('defaults HOST to 127.0.0.1 and is not reachable on other interfaces', async () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    const service = await startServiceProcess({ DATA_DIR: tempDir('loopback') });
    try {
      expect(service.output()).toContain('"host":"127.0.0.1"');
      const port = new URL(service.url).port;
      const outside = Object.values(networkInterfaces())
        .flat()
        .find((address) => address && address.family === 'IPv4' && !address.internal);
      if (outside) await expect(fetch(`http://${outside.address}:${port}/v1/openapi.json`)).rejects.toThrow();
    } finally {
      await service.stop();
    }
  });
});
