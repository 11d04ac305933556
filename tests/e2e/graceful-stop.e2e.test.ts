import { ensureBuilt, quickStartKey, type ServiceProcess, startServiceProcess } from '../support/service-process';
import { tempDir } from '../support/test-service';

type Outcome = Readonly<{ status: number; id: string | null; answeredAt: number } | { error: string; answeredAt: number }>;

/** `count` customer creations at once (the key's rate limit is 120 a minute), each with its own Idempotency-Key; what each got (an answer or the client's error). */
const createCustomers = (service: ServiceProcess, key: string, count: number, tag: string): Promise<Outcome>[] =>
  Array.from({ length: count }, async (_, n) => {
    try {
      const response = await fetch(`${service.url}/v1/customers`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': `${tag}-${n}` },
        body: JSON.stringify({ code: `${tag.toUpperCase()}-${n}`, name: `Customer ${tag} ${n}`, email: `c${n}@${tag}.example` }),
      });
      const body = (await response.json()) as { id?: string };
      return { status: response.status, id: body.id ?? null, answeredAt: Date.now() };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return { error: cause?.code ?? cause?.message ?? String(error), answeredAt: Date.now() };
    }
  });

const acknowledged = (outcomes: readonly Outcome[]): string[] => outcomes.flatMap((o) => ('status' in o && o.status === 201 && o.id ? [o.id] : []));

/** Once `count` of them have settled. */
const settled = (outcomes: Promise<Outcome>[], count: number): Promise<void> =>
  new Promise((resolve) => {
    let done = 0;
    for (const outcome of outcomes) void outcome.then(() => ++done === count && resolve());
  });

const expectStored = async (dataDir: string, key: string, ids: readonly string[]) => {
  const again = await startServiceProcess({ DATA_DIR: dataDir });
  try {
    for (const id of ids) {
      const read = await fetch(`${again.url}/v1/customers/${id}`, { headers: { Authorization: `Bearer ${key}` } });
      expect(read.status).toBe(200);
    }
  } finally {
    expect(await again.stop()).toBe(0);
  }
};

/** A first start on a new data directory, with 100 creations sent and the first 10 answered. */
const startUnderLoad = async (tag: string) => {
  const dataDir = tempDir(tag);
  const service = await startServiceProcess({ DATA_DIR: dataDir });
  const key = await quickStartKey(service);
  const pending = createCustomers(service, key, 100, tag);
  await settled(pending, 10);
  return { dataDir, service, key, pending };
};

describe('stopping the real process', () => {
  beforeAll(ensureBuilt, 120_000);

  it('on SIGTERM answers every request in flight, then exits 0; everything acknowledged is there after a restart', async () => {
    const { dataDir, service, key, pending } = await startUnderLoad('term');
    const signalledAt = Date.now();
    service.signal('SIGTERM');
    expect(await service.exited).toBe(0);
    const outcomes = await Promise.all(pending);

    // A request the server had taken is answered; one that had not connected yet is refused, never cut.
    const errors = outcomes.flatMap((o) => ('error' in o ? [o.error] : []));
    expect(errors.filter((error) => error !== 'ECONNREFUSED')).toEqual([]);
    expect(outcomes.filter((o) => 'status' in o && o.status !== 201)).toEqual([]);
    const answeredAfter = outcomes.filter((o) => 'status' in o && o.answeredAt > signalledAt);
    expect(answeredAfter.length).toBeGreaterThan(0);
    const log = service.output();
    for (const line of ['"signal":"SIGTERM"', 'stopping: no new connections', 'stopping: every request answered', '"msg":"stopped"']) expect(log).toContain(line);
    expect(log.indexOf('every request answered')).toBeLessThan(log.indexOf('"msg":"stopped"'));

    await expectStored(dataDir, key, acknowledged(outcomes));
  }, 90_000);

  it('exits at once on a second signal, losing nothing it acknowledged', async () => {
    const { dataDir, service, key, pending } = await startUnderLoad('twice');
    service.signal('SIGTERM');
    await service.printed(/stopping: no new connections/);
    service.signal('SIGINT');
    expect(await service.exited).toBe(130);
    expect(service.output()).toContain('second signal: exiting at once');
    const outcomes = await Promise.all(pending);
    // Cut requests are never answered 201: whatever was answered 201 was committed first.
    await expectStored(dataDir, key, acknowledged(outcomes));
  }, 90_000);
});
