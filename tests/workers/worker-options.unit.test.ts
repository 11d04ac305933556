import { loadConfig } from '../../infra/config';
import { workerOptions } from '../../service/services';
import type { Services } from '../../service/services';

/** The workers' settings come from the environment as the README's configuration table says. */
describe('worker options from the configuration', () => {
  const optionsFor = (env: Record<string, string>) => workerOptions({ config: loadConfig({ ADMIN_TOKEN: 'x'.repeat(32), ...env }), resolver: undefined } as unknown as Services);

  it('pushes 16 invoices and credit notes at once by default, ACCOUNTING_PUSH_CONCURRENCY otherwise', () => {
    expect(optionsFor({}).accountingSync).toEqual({ concurrency: 16 });
    expect(optionsFor({ ACCOUNTING_PUSH_CONCURRENCY: '4' }).accountingSync).toEqual({ concurrency: 4 });
  });

  it.each(['0', '65', '2.5', 'many'])('refuses ACCOUNTING_PUSH_CONCURRENCY=%s at start', (value) => {
    expect(() => loadConfig({ ADMIN_TOKEN: 'x'.repeat(32), ACCOUNTING_PUSH_CONCURRENCY: value })).toThrow(/ACCOUNTING_PUSH_CONCURRENCY/);
  });
});
