import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { until } from '../support/until';

/**
 * The production stack of docker-compose.yml, through its proxy: run by the hosted workflow
 * (.github/workflows/ci.yml, job `stack`) with STACK_URL, ADMIN_TOKEN and METRICS_TOKEN set; this
 * project's CI machine has no Docker, and skips it.
 */
const url = process.env.STACK_URL;
const describeStack = url ? describe : describe.skip;
const admin = { Authorization: `Bearer ${process.env.ADMIN_TOKEN ?? ''}`, 'Content-Type': 'application/json' };

describeStack(`the production stack behind its proxy${url ? '' : ' (skipped: STACK_URL is not set)'}`, () => {
  it('is ready, serves metrics with the token, and answers every request while one API process stops', async () => {
    expect((await fetch(`${url}/health/ready`)).status).toBe(200);
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const metrics = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${process.env.METRICS_TOKEN ?? ''}` } });
    expect(await metrics.text()).toContain('billing_http_request_duration_seconds');

    const created = await fetch(`${url}/admin/v1/organisations`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Stack Ltd', timezone: 'Europe/London', default_currency: 'GBP' }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const read = async () => (await fetch(`${url}/admin/v1/organisations/${id}`, { headers: admin })).status;
    // Round robin: each process reads the read models the projections' lease holder keeps.
    await until('every process reads the organisation', async () => (await Promise.all([read(), read(), read()])).every((status) => status === 200), 20_000);

    const statuses: number[] = [];
    let reading = true;
    const load = (async () => {
      while (reading) statuses.push(await read());
    })();
    await promisify(execFile)('docker', ['compose', 'stop', 'billing-2']);
    await promisify(execFile)('docker', ['compose', 'start', 'billing-2']);
    reading = false;
    await load;
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  }, 120_000);
});
