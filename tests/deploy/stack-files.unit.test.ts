import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../../infra/config';

/**
 * What can be checked here of the files this machine cannot run (it has no Docker): the production
 * compose file and the hosted workflow parse, wire what the code reads, and agree with each other
 * and with `engines`. `docker compose config` and the runs themselves happen on the hosted runner.
 */
const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const yamlOf = (path: string) => parse(read(path), { merge: true }) as Record<string, unknown>;

type Service = { image?: string; build?: string; command?: string[]; environment?: Record<string, string>; depends_on?: Record<string, unknown>; volumes?: string[] };
type Job = { strategy?: { matrix?: { node?: number[] } }; services?: Record<string, unknown>; env?: Record<string, string>; steps: { run?: string; uses?: string; with?: Record<string, unknown> }[] };

/** Compose's `${NAME:?message}` and `${NAME:-default}`, as a run with NAME set would read them. */
const interpolated = (value: string, given: Record<string, string>) => value.replace(/\$\{(\w+)(?::[?-][^}]*)?\}/g, (_, name: string) => given[name] ?? '');

describe('docker-compose.yml', () => {
  const compose = yamlOf('docker-compose.yml') as { services: Record<string, Service>; volumes: Record<string, unknown> };
  const apis = Object.entries(compose.services).filter(([, service]) => service.environment?.EVENTSTORE_URL);

  it('runs at least two API processes on EventStoreDB, a MongoDB replica set and Redis, each with a data directory of its own', () => {
    expect(apis.map(([name]) => name)).toEqual(['billing-1', 'billing-2', 'billing-3']);
    expect(compose.services.eventstore!.image).toMatch(/kurrentdb/);
    expect(compose.services.mongo!.command).toEqual(expect.arrayContaining(['--replSet']));
    expect(compose.services.redis!.image).toMatch(/^redis:/);
    const volumes = apis.map(([, service]) => service.volumes![0]!.split(':')[0]!);
    expect(new Set(volumes).size).toBe(apis.length);
    for (const volume of volumes) expect(compose.volumes).toHaveProperty(volume);
  });

  it('sets only variables the service reads, with values it accepts, one accounting system for all', () => {
    for (const [, service] of apis) {
      const environment = service.environment!;
      expect(Object.keys(environment).filter((name) => !(CONFIG_VARIABLES as readonly string[]).includes(name))).toEqual([]);
      const given = { ADMIN_TOKEN: 'a-token-of-sixteen-or-more', METRICS_TOKEN: '' };
      const config = loadConfig(Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, interpolated(String(value), given)])));
      expect(config).toMatchObject({ HOST: '0.0.0.0', DATA_DIR: '/data', ACCOUNTING_URL: 'http://accounting:4100' });
      expect(environment.ADMIN_TOKEN).toMatch(/^\$\{ADMIN_TOKEN:\?/);
    }
    const accounting = compose.services.accounting!;
    expect(accounting.command!.join(' ')).toMatch(/^node dist\/.*\/main\.js$/);
    expect(existsSync(join(root, accounting.command![1]!.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
    expect(accounting.environment!.ACCOUNTING_PORT).toBe('4100');
  });

  it('puts a proxy before every API process that leaves out one whose /health/ready fails', () => {
    const proxy = compose.services.proxy!;
    expect(Object.keys(proxy.depends_on!)).toEqual(apis.map(([name]) => name));
    const caddyfile = read(proxy.volumes![0]!.split(':')[0]!.replace(/^\.\//, ''));
    expect(caddyfile).toContain(`reverse_proxy ${apis.map(([name]) => `${name}:3000`).join(' ')}`);
    expect(caddyfile).toMatch(/health_uri \/health\/ready\n/);
  });

  it('builds the image on a supported Node.js line', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe('>=22');
    expect(read('Dockerfile').match(/^FROM node:(\d+)/gm)).toEqual(['FROM node:22', 'FROM node:22']);
  });
});

describe('.github/workflows/ci.yml', () => {
  const workflow = yamlOf('.github/workflows/ci.yml') as { jobs: Record<string, Job> };

  it('runs the suite with every adapter on each supported line, the lines .ci/run runs', () => {
    const { adapters } = workflow.jobs;
    expect(adapters!.strategy!.matrix!.node).toEqual([22, 24]);
    expect(read('.ci/run')).toMatch(/\nfor major in 22 24; do\n/);
    expect(Object.keys(adapters!.services!).sort()).toEqual(['eventstore', 'redis']);
    expect(adapters!.steps.map((step) => step.run ?? step.uses).join('\n')).toMatch(/docker run -d --name mongo .*--replSet rs0[\s\S]*npm ci\nnpm test\nnpm run lint/);
    const config = loadConfig(adapters!.env);
    expect(config).toMatchObject({ EVENTSTORE_URL: expect.any(String), MONGO_URL: expect.any(String), REDIS_URL: expect.any(String) });
  });

  it('starts the compose stack and runs the stack suite through its proxy', () => {
    const { stack } = workflow.jobs;
    const runs = stack!.steps.flatMap((step) => (step.run ? [step.run] : []));
    expect(runs[0]).toMatch(/^docker compose up --build --wait/);
    const suite = /npx jest (\S+)/.exec(runs.join('\n'))![1]!;
    expect(existsSync(join(root, suite))).toBe(true);
    expect(stack!.env!.STACK_URL).toBe('http://127.0.0.1:8080');
    expect(read('docker-compose.yml')).toContain('ports: ["8080:8080"]');
    loadConfig({ ADMIN_TOKEN: stack!.env!.ADMIN_TOKEN, METRICS_TOKEN: stack!.env!.METRICS_TOKEN });
  });
});
