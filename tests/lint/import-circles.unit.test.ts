import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SOURCE_FOLDERS = ['service', 'demo', 'api', 'workers', 'commands', 'projections', 'domain', 'infra', 'bench'];
// Static imports and re-exports, type-only ones too: a loop of types is still a loop to read.
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|(?:^|\n)\s*import\s+'(\.[^']+)'/g;

const sourceFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });

/** Each project file's relative imports, resolved to files (`./x` is `./x.ts` or `./x/index.ts`). */
const importGraph = (): Map<string, string[]> => {
  const graph = new Map<string, string[]>();
  for (const file of SOURCE_FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)))) {
    const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => resolve(dirname(file), match[1] ?? match[2]!));
    const files = targets.map((target) => [`${target}.ts`, join(target, 'index.ts')].find(existsSync)).filter((target) => target !== undefined);
    graph.set(relative(ROOT, file), files.map((target) => relative(ROOT, target)));
  }
  return graph;
};

/** The groups of files that import each other in a loop (strongly connected components of two or more, or a file importing itself). */
const importCircles = (graph: ReadonlyMap<string, readonly string[]>): string[][] => {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
};

describe('imports', () => {
  it('form no circles: no files import each other in a loop, within a floor as across floors', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(250);
    expect(graph.get('domain/usage/decider.ts')).toContain('domain/usage/state.ts');
    expect(importCircles(graph)).toEqual([]);
  });

  it('are found in a loop however long (the check above can fail)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  });
});
