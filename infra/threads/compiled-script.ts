import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The repository root: the nearest folder above `from` that holds tsconfig.json. */
export const projectRoot = (from: string): string => {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'tsconfig.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No tsconfig.json above ${from}.`);
  }
};

/**
 * The JavaScript file a worker thread runs for the module `name` beside `callerFile` (the caller's
 * `__filename`). Compiled, it is the `.js` beside it. Run from TypeScript sources (ts-jest), a worker
 * thread cannot load `.ts` (Node 20 has no type stripping, and jest's transform does not reach other
 * threads), so it is the module's compiled twin in `dist/` (`npm test` runs tsc first); a missing or
 * older twin of any module in that folder is refused, not silently run.
 */
export const compiledScript = (callerFile: string, name: string): string => {
  const folder = dirname(callerFile);
  if (!callerFile.endsWith('.ts')) return join(folder, `${name}.js`);
  const root = projectRoot(folder);
  const compiledFolder = join(root, 'dist', relative(root, folder));
  for (const source of readdirSync(folder).filter((file) => file.endsWith('.ts'))) {
    const compiled = join(compiledFolder, source.replace(/\.ts$/, '.js'));
    if (!existsSync(compiled) || statSync(compiled).mtimeMs < statSync(join(folder, source)).mtimeMs) {
      throw new Error(
        `${relative(root, compiled)} is missing or older than its source: run \`npx tsc -p .\` first (a worker thread runs compiled JavaScript). ` +
          'If it still is, a checkout gave the source back content tsc had compiled, which its incremental build does not emit again: `rm -rf dist` and run tsc.',
      );
    }
  }
  return join(compiledFolder, `${name}.js`);
};
