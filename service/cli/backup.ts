import { resolve } from 'node:path';
import { loadConfig } from '../../infra/config';
import { Refused } from '../backup/backup-format';
import { writeBackup } from '../backup/write-backup';
import { optionValue } from './options';
import { progressBar } from './progress-bar';
import { runCommand } from './run-command';

/**
 * `npm run backup -- --out FILE`: an online, consistent copy of `$DATA_DIR` while the service runs
 * on it (or not), in one file; prints each copy's progress and the event position the copy holds.
 * Exit 2: no `--out`, FILE exists, or no database in DATA_DIR.
 */
const main = async (): Promise<number> => {
  const out = optionValue(process.argv.slice(2), '--out');
  if (!out) {
    process.stderr.write('usage: npm run backup -- --out FILE\n');
    return 2;
  }
  const { DATA_DIR } = loadConfig();
  const bars = new Map<string, ReturnType<typeof progressBar>>();
  try {
    const { manifest, files } = await writeBackup(DATA_DIR, resolve(out), (what, { copiedPages, totalPages }) => {
      let bar = bars.get(what);
      if (!bar) bars.set(what, (bar = progressBar(`copying ${what}`, 'pages')));
      bar.update(copiedPages, totalPages, copiedPages === totalPages);
      if (copiedPages === totalPages) bar.finish(copiedPages);
    });
    process.stdout.write(`backup of ${DATA_DIR} written to ${out}: the log up to event position ${manifest.event_position}${files.length > 0 ? `, with ${files.join(', ')}` : ''}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    process.stderr.write(`cannot back up: ${error.message}\n`);
    return error.exitCode;
  }
};

runCommand('backup', main);
