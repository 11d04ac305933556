import { parseArgs } from 'node:util';
import { type ReportKind, type ReportQuery, reportQuery, REPORTS, reportRequest } from '../../api/schemas/reports';
import { loadConfig } from '../../infra/config';
import { createLogger } from '../../infra/logger';
import { DataDirectoryInUse, type DataDirectoryLock, lockDataDirectory } from '../../infra/service-lock';
import { ORGANISATIONS } from '../../projections/read-models/organisations';
import { openServices } from '../services';
import { adminClient, noTokenMessage } from './admin-client';
import { progressBar } from './progress-bar';
import { runCommand } from './run-command';

const USAGE = 'usage: npm run report -- mrr|revenue --org <org_…> --from YYYY-MM --to YYYY-MM [--currency GBP] [--as-of <ISO instant>] [--csv]\n';

type Row = Record<string, string | number>;

/** The rows as a table: a header, then a line a row, every column as wide as its widest cell, figures to the right. */
const table = (columns: readonly string[], rows: readonly Row[]): string => {
  const cells = [columns, ...rows.map((row) => columns.map((column) => String(row[column])))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  return cells.map((line) => line.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd() + '\n').join('');
};

/** The rows from the running service's admin API: the very answer GET …/reports/{kind} gives. */
const fromService = async (kind: ReportKind, organisationId: string, query: ReportQuery, config: ReturnType<typeof loadConfig>): Promise<Row[] | string> => {
  const call = adminClient(config);
  if (!call) return noTokenMessage(config);
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const answer = await call('GET', `/admin/v1/organisations/${encodeURIComponent(organisationId)}/reports/${kind}?${search.toString()}`);
  const body = JSON.parse(answer.text) as { data?: Row[]; error?: { message: string } };
  return answer.status === 200 ? body.data! : `${answer.status}: ${body.error?.message ?? answer.text}\n`;
};

/** The rows computed here, from the read model brought up to the log's head first (with its progress). */
const fromDataDirectory = async (kind: ReportKind, organisationId: string, query: ReportQuery, config: ReturnType<typeof loadConfig>): Promise<Row[] | string> => {
  const services = await openServices(config, createLogger(process.env.LOG_LEVEL ?? 'warn'));
  try {
    await services.projections.init();
    const bar = progressBar('bringing the read models up to the log');
    await services.projections.catchUp((progress) => bar.update(progress.events, Number(progress.head)));
    if (!(await services.readStore.get(ORGANISATIONS, organisationId))) return `No organisation with id ${organisationId}.\n`;
    return await REPORTS[kind].rows(services, reportRequest(organisationId, query));
  } finally {
    await services.close();
  }
};

/**
 * `npm run report -- mrr|revenue --org … --from … --to …`: the MRR or invoiced revenue report as a
 * table (or `--csv`), the rows GET …/reports/mrr and …/reports/revenue answer. With the service
 * running it asks the service; otherwise it reads the data directory itself. Exit 2 on bad input,
 * 1 when the organisation is not there.
 */
const main = async (): Promise<number> => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { org: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, currency: { type: 'string' }, 'as-of': { type: 'string' }, csv: { type: 'boolean' } },
  });
  const kind = positionals[0];
  if ((kind !== 'mrr' && kind !== 'revenue') || !values.org) {
    process.stderr.write(USAGE);
    return 2;
  }
  const parsed = reportQuery.safeParse({ from: values.from, to: values.to, currency: values.currency, as_of: values['as-of'] });
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    process.stderr.write(`${issue?.path.join('.') ?? 'query'}: ${issue?.message ?? 'invalid'}\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  // The lock the service holds: with the service running, the service answers.
  let lock: DataDirectoryLock | null = null;
  try {
    lock = lockDataDirectory(config.DATA_DIR, 'report');
  } catch (error) {
    if (!(error instanceof DataDirectoryInUse) || error.holder?.role !== 'service') throw error;
  }
  let rows: Row[] | string;
  try {
    rows = lock ? await fromDataDirectory(kind, values.org, parsed.data, config) : await fromService(kind, values.org, parsed.data, config);
  } finally {
    lock?.release();
  }
  if (typeof rows === 'string') {
    process.stderr.write(rows);
    return 1;
  }
  const report = REPORTS[kind];
  process.stdout.write(values.csv ? report.csv({ data: rows }) : table(report.columns, rows));
  return 0;
};

runCommand('report', main);
