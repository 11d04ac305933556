import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

type Case = readonly [file: string, source: string];

const refused: Case[] = [
  ['domain/pricing/money.ts', "import '../../commands/plumbing/handle';"],
  ['domain/pricing/money.ts', "import 'node:fs';"],
  ['infra/ids.ts', "import '../domain/event-catalogue';"],
  ['commands/plumbing/handle.ts', "import '../../projections/read-models/customers';"],
  ['projections/read-models/customers.ts', "import '../../commands/handle';"],
  ['api/route.ts', "import './public/idempotency';"],
  ['api/admin/accounting.ts', "import '../../commands/plumbing/handle';"],
  ['api/public/customers.ts', "import '../../service/services';"],
  ['examples/integration.ts', "import '../api/app';"],
];
const allowed: Case[] = [
  ['commands/plumbing/handle.ts', "import '../../domain/event-catalogue';"],
  ['projections/read-models/customers.ts', "import '../../infra/read-store/port';"],
  ['api/app.ts', "import './public/customers';"],
  ['service/services.ts', "import '../api/app';"],
  ['examples/integration.ts', "import './billing-api';"],
];
const oneLevelDeep: Case = ['domain/event-catalogue.ts', "import { newId } from '../infra/ids';\nvoid newId;"];
// Inside commands/: the plumbing below the features, the features beside each other, sandbox/ and subscription/ above them.
// Inside projections/: queries/ above usage-ids/ above read-models/ above engine/. The demonstration accounting system on its own.
const refusedInside: Case[] = [
  ['commands/plumbing/handle.ts', "import '../subscription/change-units';"],
  ['commands/catalogue/create-plan.ts', "import '../customer/import-customer';"],
  ['commands/usage/bill-usage-period.ts', "import '../accounting/push-invoice';"],
  ['commands/customer/import-customer.ts', "import '../subscription/create-subscription';"],
  ['commands/sandbox/copy-into-sandbox.ts', "import '../subscription/change-units';"],
  ['projections/engine/runner.ts', "import '../read-models/all';"],
  ['projections/read-models/customers.ts', "import '../usage-ids/usage-event-ids';"],
  ['projections/usage-ids/usage-event-ids.ts', "import '../queries/lookups';"],
  ['projections/engine/runner.ts', "import '../../commands/plumbing/handle';"],
  ['demo/ledger.ts', "import '../domain/pricing/money';"],
  ['infra/ids.ts', "import '../demo/start';"],
  ['api/app.ts', "import '../demo/start';"],
];
const allowedInside: Case[] = [
  ['commands/customer/import-customer.ts', "import '../plumbing/customer-command';"],
  ['commands/subscription/create-subscription.ts', "import '../customer/import-customer';"],
  ['commands/sandbox/copy-into-sandbox.ts', "import '../catalogue/create-plan';"],
  ['projections/queries/lookups.ts', "import '../usage-ids/usage-event-ids';"],
  ['projections/read-models/all.ts', "import '../engine/projection';"],
  ['demo/ledger.ts', "import '../infra/sqlite/group-commit';"],
  ['service/services.ts', "import '../demo/start-thread';"],
];

/**
 * The project's own ESLint configuration, asked (in one child process: jest cannot load its ESM
 * config) which `no-restricted-imports` messages each snippet gets when placed in a real file.
 */
const LINT = `
import { ESLint } from 'eslint';
const eslint = new ESLint();
const out = [];
for (const [filePath, source] of JSON.parse(process.argv[1])) {
  const [result] = await eslint.lintText(source + '\\nexport {};\\n', { filePath });
  out.push(result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message));
}
process.stdout.write(JSON.stringify(out));
`;
const cases = [oneLevelDeep, ...refused, ...allowed, ...refusedInside, ...allowedInside];
let messages: string[][];
beforeAll(() => {
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', LINT, JSON.stringify(cases)], { cwd: join(__dirname, '..', '..') });
  messages = JSON.parse(output.toString()) as string[][];
}, 120_000);
const restrictedImports = (file: string, source: string): string[] => messages[cases.findIndex(([f, s]) => f === file && s === source)]!;

describe('floors: ESLint refuses every upward import', () => {
  it('catches domain/x.ts importing ../infra/ids (a file one level deep)', () => {
    expect(restrictedImports(...oneLevelDeep)).toEqual([
      expect.stringContaining('Arrows point down'),
    ]);
  });

  it.each(refused)('refuses %s → %s', (file, source) => {
    expect(restrictedImports(file, source)).toHaveLength(1);
  });

  it.each(allowed)('allows %s → %s', (file, source) => {
    expect(restrictedImports(file, source)).toEqual([]);
  });
});

describe('floors inside commands/ and projections/, and the demonstration application’s', () => {
  it.each(refusedInside)('refuses %s → %s', (file, source) => {
    expect(restrictedImports(file, source)).toHaveLength(1);
  });

  it.each(allowedInside)('allows %s → %s', (file, source) => {
    expect(restrictedImports(file, source)).toEqual([]);
  });
});
