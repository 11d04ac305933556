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
