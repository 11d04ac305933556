import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';

/** The process under test as the bench drives it: what it said when ready, a question answered over IPC, and its stop. */
export type ServedProcess<Ready> = Readonly<{
  ready: Ready;
  /** Sends `message` and resolves with the next answer (`null` for `reset`, which is not answered). */
  ask: <Answer>(message: string) => Promise<Answer | null>;
  stop: () => Promise<void>;
}>;

/**
 * Starts `bench/serve.ts <target>` in a process of its own (the load generator never shares the
 * server's event loop), its seed in `BENCH_SEED` as JSON, writing a CPU profile into `profileDir`
 * when one is given, and resolves once it says it is ready.
 */
export const startServed = async <Ready>(target: string, seed: unknown, profileDir: string | null): Promise<ServedProcess<Ready>> => {
  const child: ChildProcess = fork(join(__dirname, 'serve.js'), [target], {
    execArgv: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    env: { ...process.env, BENCH_SEED: JSON.stringify(seed ?? {}) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { ready: Ready }).ready));
    child.once('exit', (code) => reject(new Error(`the ${target} server exited with ${code} before it was ready`)));
  });
  return {
    ready,
    ask: <Answer>(message: string) =>
      new Promise<Answer | null>((resolve) => {
        if (message === 'reset') {
          child.send(message);
          resolve(null);
          return;
        }
        child.once('message', (answer) => resolve((answer as { answer: Answer }).answer));
        child.send(message);
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
};
