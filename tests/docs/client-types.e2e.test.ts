import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_TYPES_FILE } from '../../service/client-types';
import { ensureBuilt, runNodeAsync } from '../support/service-process';
import { tempDir } from '../support/test-service';

// openapi-typescript loads ES modules that jest's module system cannot: the compiled command runs it.
describe('the typed client example’s types (npm run client:types)', () => {
  beforeAll(ensureBuilt, 120_000);

  it(`${CLIENT_TYPES_FILE} is what openapi-typescript makes of the /v1 document served now`, async () => {
    const check = await runNodeAsync('service/cli/client-types.js', ['--check'], {});
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  }, 60_000);

  it('names the first line that differs when the types have drifted from the document', async () => {
    const drifted = join(tempDir('client-types'), 'billing-api.d.ts');
    const committed = readFileSync(join(__dirname, '..', '..', CLIENT_TYPES_FILE), 'utf8');
    writeFileSync(drifted, committed.replace('* Create a subscription\n', '* Create a subscription, the old way\n'));
    const check = await runNodeAsync('service/cli/client-types.js', ['--check', drifted], {});
    expect(check.status).toBe(1);
    expect(check.stderr).toMatch(/^.*billing-api\.d\.ts does not match the \/v1 document at line \d+: committed ".*Create a subscription, the old way", generated ".*Create a subscription": run npm run client:types\n$/);
  }, 60_000);
});
