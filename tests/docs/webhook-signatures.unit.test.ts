import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifySignature } from '../../examples/webhooks/verify-signature';
import { signatureHeader } from '../../infra/webhooks/signature';
import { describeIf, onPath } from '../support/describe-or-skip';

/**
 * The receivers' signature checks that docs/webhooks.md shows, in TypeScript and Python, against
 * the header the service's own signer writes. (Every webhook test also checks real deliveries with
 * the TypeScript one: tests/support/webhook-receiver.ts.)
 */
const root = join(__dirname, '..', '..');
const typescriptFile = join(root, 'examples', 'webhooks', 'verify-signature.ts');
const pythonFile = join(root, 'examples', 'webhooks', 'verify_signature.py');

const secret = 'whsec_current_secret_of_the_endpoint';
const rolled = 'whsec_the_secret_before_the_roll';
const body = '{"id":"evt_1","object":"event","type":"invoice.paid","livemode":false,"data":{"object":{"id":"inv_1","name":"Zoë"}}}';
const now = 1_790_000_000;

type Case = Readonly<{ name: string; header: string | null; body: string; secret: string; now: number; valid: boolean }>;

const cases: readonly Case[] = [
  { name: 'a delivery signed with the secret', header: signatureHeader([secret], now, body), body, secret, now, valid: true },
  { name: 'the new secret during the 24 hours after a roll', header: signatureHeader([secret, rolled], now, body), body, secret, now, valid: true },
  { name: 'the old secret during the 24 hours after a roll', header: signatureHeader([secret, rolled], now, body), body, secret: rolled, now, valid: true },
  { name: 'another secret', header: signatureHeader([secret], now, body), body, secret: 'whsec_another', now, valid: false },
  { name: 'a body changed on the way', header: signatureHeader([secret], now, body), body: body.replace('inv_1', 'inv_2'), secret, now, valid: false },
  { name: 'a body parsed and serialised again', header: signatureHeader([secret], now, body), body: JSON.stringify(JSON.parse(body), null, 1), secret, now, valid: false },
  { name: 'a t exactly five minutes old', header: signatureHeader([secret], now - 300, body), body, secret, now, valid: true },
  { name: 'a t more than five minutes old', header: signatureHeader([secret], now - 301, body), body, secret, now, valid: false },
  { name: 'a t moved on with the old v1', header: signatureHeader([secret], now - 400, body).replace(`t=${now - 400}`, `t=${now}`), body, secret, now, valid: false },
  { name: 'no header', header: null, body, secret, now, valid: false },
  { name: 'a header without t', header: signatureHeader([secret], now, body).replace(/^t=\d+,/, ''), body, secret, now, valid: false },
  { name: 'a header without v1', header: `t=${now}`, body, secret, now, valid: false },
  { name: 'a v1 cut short', header: signatureHeader([secret], now, body).slice(0, -2), body, secret, now, valid: false },
];

const describePython = describeIf(onPath('python3'), 'PYTHON CHECKS', 'no python3 on PATH', 'apt-get install -y python3');

describe('webhook signature verification for receivers, as docs/webhooks.md shows it', () => {
  const guide = readFileSync(join(root, 'docs', 'webhooks.md'), 'utf8');

  it('shows the TypeScript and Python files as they are', () => {
    expect(guide).toContain('```ts\n' + readFileSync(typescriptFile, 'utf8') + '```');
    expect(guide).toContain('```python\n' + readFileSync(pythonFile, 'utf8') + '```');
  });

  describe('in TypeScript', () => {
    it.each(cases.map((c) => [c.name, c]))('%s', (_name, c) => {
      expect(verifySignature(c.header ?? undefined, c.body, c.secret, c.now)).toBe(c.valid);
    });
  });

  describePython('in Python', () => {
    it('judges every case as the TypeScript one does', () => {
      const driver = [
        'import json, sys',
        `sys.path.insert(0, ${JSON.stringify(join(root, 'examples', 'webhooks'))})`,
        'from verify_signature import verify_signature',
        'cases = json.load(sys.stdin)',
        'print(json.dumps([verify_signature(c["header"], c["body"].encode(), c["secret"], c["now"]) for c in cases]))',
      ].join('\n');
      const run = spawnSync('python3', ['-c', driver], { input: JSON.stringify(cases), encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual(cases.map((c) => c.valid));
    });

    it('runs as a command: the header and secret as arguments, the raw body on stdin', () => {
      const header = signatureHeader([secret], Math.floor(Date.now() / 1000), body);
      const valid = spawnSync('python3', [pythonFile, header, secret], { input: body, encoding: 'utf8' });
      expect([valid.status, valid.stdout]).toEqual([0, 'valid\n']);
      const invalid = spawnSync('python3', [pythonFile, header, 'whsec_another'], { input: body, encoding: 'utf8' });
      expect([invalid.status, invalid.stdout]).toEqual([1, 'invalid\n']);
    });
  });
});
