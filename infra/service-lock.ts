import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const file = (dataDir: string) => join(dataDir, 'service.pid');

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pid of a live service process on this data directory, if any. */
export const runningService = (dataDir: string): number | null => {
  if (!existsSync(file(dataDir))) return null;
  const pid = Number(readFileSync(file(dataDir), 'utf8').trim());
  return Number.isInteger(pid) && pid !== process.pid && alive(pid) ? pid : null;
};

/** Marks the data directory as served by this process until `release` (or the process's end). */
export const holdServiceLock = (dataDir: string): { release(): void } => {
  writeFileSync(file(dataDir), `${process.pid}\n`);
  return { release: () => rmSync(file(dataDir), { force: true }) };
};
