import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Heap and array buffers in use, collected twice a loop turn apart (array buffers are freed after the collection that finds them unused). */
export const heldBytes = async (): Promise<number> => {
  collect();
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

/** The JS heap in use once collected, in whole MB (no loop turn: for a caller that cannot wait). */
export const heapMbAfterCollection = (): number => {
  collect();
  return Math.round(process.memoryUsage().heapUsed / 1024 / 1024);
};
