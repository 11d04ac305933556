import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** The compiled service; `npm test` compiles first, a bare `jest` run compiles here. */
export const ensureBuilt = (): void => {
  if (!existsSync(join(root, 'dist', 'service', 'main.js'))) {
    execFileSync(join(root, 'node_modules', '.bin', 'tsc'), [], { cwd: root, stdio: 'inherit' });
  }
};

export type ServiceProcess = Readonly<{
  url: string;
  output: () => string;
  /** Resolves with the first match once the process has printed it (its streams arrive in pieces). */
  printed: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpExecArray>;
  stop(): Promise<number | null>;
  /** Sends a signal and returns at once (`exited` tells how it ended). */
  signal(signal: NodeJS.Signals): void;
  /** Resolves with the exit status once the process has ended (null: ended by a signal). */
  exited: Promise<number | null>;
  /** The signal that ended the process, if one did. */
  endedBy: Promise<NodeJS.Signals | null>;
  /** kill -9: no shutdown of any kind. */
  kill(): Promise<void>;
}>;

/** Starts `node dist/service/main.js` as a real process and waits until it listens. */
export const startServiceProcess = (env: Record<string, string>): Promise<ServiceProcess> =>
  new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [join(root, 'dist', 'service', 'main.js')], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const endedBy = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, signal) => done(signal)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`service did not start:\n${output}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          output: () => output,
          printed: async (pattern, timeoutMs = 5000) => {
            const deadline = Date.now() + timeoutMs;
            for (;;) {
              const match = pattern.exec(output);
              if (match) return match;
              if (Date.now() > deadline) throw new Error(`not printed within ${timeoutMs} ms: ${pattern}\n${output}`);
              await new Promise((resolve) => setTimeout(resolve, 20));
            }
          },
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
          signal: (signal) => void child.kill(signal),
          exited,
          endedBy,
          kill: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.kill('SIGKILL');
            }),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}:\n${output}`));
    });
  });

/** The sandbox key a first start's quick start prints (with every scope). */
export const quickStartKey = async (service: ServiceProcess): Promise<string> => (await service.printed(/(service_test_[0-9A-Za-z]{32})/))[1]!;

/** Runs a compiled command to its end; returns its exit status and both output streams. */
export const runNode = (script: string, args: string[], env: Record<string, string>) => {
  const result = spawnSync(process.execPath, [join(root, 'dist', script), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
};

/** Runs a compiled command without blocking this process's event loop (requests keep flowing meanwhile). */
export const runNodeAsync = (script: string, args: string[], env: Record<string, string>) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(root, 'dist', script), ...args], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
