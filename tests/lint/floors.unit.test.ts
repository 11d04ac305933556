import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

type Case = readonly [file: string, source: string];

const refused: Case[] = [
  ['domain/pricing/money.ts', "import '../../commands/handle';"],
  ['domain/pricing/money.ts', "import 'node:fs';"],
  ['infra/ids.ts', "import '../domain/event-catalogue';"],
  ['commands/handle.ts', "import '../projections/customers';"],
  ['projections/customers.ts', "import '../commands/handle';"],
  ['api/route.ts', "import './public/idempotency';"],
  ['api/admin/accounting.ts', "import '../../commands/handle';"],
  ['api/public/customers.ts', "import '../../service/services';"],
  ['examples/integration.ts', "import '../api/app';"],
];
const allowed: Case[] = [
  ['commands/handle.ts', "import '../domain/event-catalogue';"],
  ['projections/customers.ts', "import '../infra/read-store/port';"],
  ['api/app.ts', "import './public/customers';"],
  ['service/services.ts', "import '../api/app';"],
  ['examples/integration.ts', "import './billing-api';"],
];
const oneLevelDeep: Case = ['domain/event-catalogue.ts', "import { newId } from '../infra/ids';\nvoid newId;"];

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
const cases = [oneLevelDeep, ...refused, ...allowed];
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
