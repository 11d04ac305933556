import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES } from '../../infra/config';

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The service's own code: every folder `npm start` runs (tests, bench and examples read their own knobs, documented beside them). */
const SERVICE_FOLDERS = ['api', 'commands', 'demo', 'domain', 'infra', 'projections', 'service', 'workers'];

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

/** `process.env.NAME` and `process.env['NAME']`, wherever the service's code reads one outside infra/config.ts. */
const environmentReads = (source: string): string[] =>
  [...source.matchAll(/process\.env(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*['"`]([^'"`]+)['"`]\s*\])/g)].map((match) => (match[1] ?? match[2])!);

/** The variables named in the first column of the table under `## Configuration`. */
const configurationTable = (): string[] => {
  const section = /^## Configuration\n([\s\S]*?)^## /m.exec(readme)![1]!;
  return [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]!);
};

describe('README.md', () => {
  it('is a guide of at most 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('finds process.env reads in both spellings', () => {
    expect(environmentReads("process.env.ADMIN_URL ?? process.env['ACCOUNTING_PORT'] + process.env[\"X_Y\"]")).toEqual(['ADMIN_URL', 'ACCOUNTING_PORT', 'X_Y']);
  });

  it('has one configuration table with every variable the service reads, and no other', () => {
    const read = new Set<string>(CONFIG_VARIABLES);
    for (const folder of SERVICE_FOLDERS) for (const file of sourceFiles(join(root, folder))) for (const name of environmentReads(readFileSync(file, 'utf8'))) read.add(name);
    const table = configurationTable();
    expect(new Set(table).size).toBe(table.length);
    expect([...table].sort()).toEqual([...read].sort());
  });

  it('lists every npm script under its operator commands', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const section = /^## Operator commands\n([\s\S]*?)^## /m.exec(readme)![1]!;
    const named = (script: string) => section.includes(`\`npm ${script}`) || section.includes(`\`npm run ${script}`);
    expect(scripts.filter((script) => !named(script))).toEqual([]);
  });
});
