import { Refused } from '../backup/backup-format';
import { restoreBackup } from '../backup/restore-backup';
import { optionValue } from './options';
import { runCommand } from './run-command';

/**
 * `npm run restore -- --from FILE --data-dir DIR`: a backup made by `npm run backup` into a new or
 * empty directory the service then starts from. Refusals write nothing: exit 2 usage or no such
 * file, 3 DIR not empty, 4 FILE not a backup of this service, 5 FILE failed its integrity check.
 */
const main = (): Promise<number> => {
  const args = process.argv.slice(2);
  const from = optionValue(args, '--from');
  const dataDir = optionValue(args, '--data-dir');
  if (!from || !dataDir) {
    process.stderr.write('usage: npm run restore -- --from FILE --data-dir DIR\n');
    return Promise.resolve(2);
  }
  try {
    const manifest = restoreBackup(from, dataDir);
    process.stdout.write(
      `restored ${from} into ${dataDir}: the log up to event position ${manifest.event_position}, backed up ${manifest.created_at} from ${manifest.source}; start the service with DATA_DIR=${dataDir}\n`,
    );
    return Promise.resolve(0);
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    process.stderr.write(`cannot restore: ${error.message}\n`);
    return Promise.resolve(error.exitCode);
  }
};

runCommand('restore', main);
