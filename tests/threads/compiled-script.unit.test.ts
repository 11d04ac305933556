import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compiledScript } from '../../infra/threads/compiled-script';
import { tempDir } from '../support/test-service';

/** A worker thread runs JavaScript: from TypeScript sources, the compiled twin in dist/, never a stale one. */
describe('compiledScript', () => {
  const project = () => {
    const root = tempDir('compiled-script');
    writeFileSync(join(root, 'tsconfig.json'), '{}');
    mkdirSync(join(root, 'infra', 'x'), { recursive: true });
    mkdirSync(join(root, 'dist', 'infra', 'x'), { recursive: true });
    for (const name of ['start', 'thread']) {
      writeFileSync(join(root, 'infra', 'x', `${name}.ts`), '');
      writeFileSync(join(root, 'dist', 'infra', 'x', `${name}.js`), '');
    }
    // Compiled a minute after the sources were written.
    const later = new Date(Date.now() + 60_000);
    for (const name of ['start', 'thread']) utimesSync(join(root, 'dist', 'infra', 'x', `${name}.js`), later, later);
    return root;
  };

  it('runs the .js beside a compiled caller', () => {
    expect(compiledScript('/app/dist/infra/x/start.js', 'thread')).toBe('/app/dist/infra/x/thread.js');
  });

  it("runs a TypeScript caller's module from dist/ when every module of its folder is compiled and current", () => {
    const root = project();
    expect(compiledScript(join(root, 'infra', 'x', 'start.ts'), 'thread')).toBe(join(root, 'dist', 'infra', 'x', 'thread.js'));
  });

  it('asks no twin of a declaration file, which compiles to nothing', () => {
    const root = project();
    writeFileSync(join(root, 'infra', 'x', 'other-module.d.ts'), '');
    expect(compiledScript(join(root, 'infra', 'x', 'start.ts'), 'thread')).toBe(join(root, 'dist', 'infra', 'x', 'thread.js'));
  });

  it('refuses a missing or stale twin, saying to compile first', () => {
    const missing = project();
    rmSync(join(missing, 'dist', 'infra', 'x', 'thread.js'));
    expect(() => compiledScript(join(missing, 'infra', 'x', 'start.ts'), 'thread')).toThrow(/dist\/infra\/x\/thread\.js is missing or older than its source: run `npx tsc -p \.` first/);

    const stale = project();
    const edited = new Date(Date.now() + 120_000);
    utimesSync(join(stale, 'infra', 'x', 'start.ts'), edited, edited);
    expect(() => compiledScript(join(stale, 'infra', 'x', 'start.ts'), 'thread')).toThrow(/dist\/infra\/x\/start\.js is missing or older/);
  });
});
