import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_TYPES_FILE, clientTypes, firstDifference } from '../client-types';
import { runCommand } from './run-command';

/**
 * `npm run client:types`: writes the typed client example's types from the /v1 document the service
 * serves. With `--check [file]` it writes nothing and exits 1 when the file (the committed one by
 * default) is not what the document generates now, naming the first line that differs.
 */
const main = async (): Promise<number> => {
  const [flag, path] = process.argv.slice(2);
  const file = path ?? join(__dirname, '..', '..', '..', CLIENT_TYPES_FILE);
  const generated = await clientTypes();
  if (flag === '--check') {
    const difference = firstDifference(readFileSync(file, 'utf8'), generated);
    if (!difference) return 0;
    process.stderr.write(`${file} does not match the /v1 document at ${difference}: run npm run client:types\n`);
    return 1;
  }
  writeFileSync(file, generated);
  process.stdout.write(`wrote ${CLIENT_TYPES_FILE}\n`);
  return 0;
};

runCommand('client:types', main);
