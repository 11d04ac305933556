import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../infra/config';

const USAGE = `usage: npm run admin -- METHOD PATH [JSON-BODY]
  e.g. npm run admin -- GET /admin/v1/organisations/org_…
       npm run admin -- POST /admin/v1/organisations '{"name":"Acme","timezone":"Europe/London","default_currency":"GBP"}'
  The service's address is ADMIN_URL (default http://127.0.0.1:$PORT); the token is ADMIN_TOKEN or $DATA_DIR/admin-token.
`;

/** `npm run admin`: one call to the operator API of a running service, its JSON answer printed; exit 1 on an error status. */
const main = async (): Promise<void> => {
  const [method, path, body] = process.argv.slice(2);
  if (!method || !path?.startsWith('/admin/v1/')) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const config = loadConfig();
  const tokenFile = join(config.DATA_DIR, 'admin-token');
  const token = config.ADMIN_TOKEN ?? (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : null);
  if (!token) {
    process.stderr.write(`no ADMIN_TOKEN and no ${tokenFile}: start the service once, or set ADMIN_TOKEN\n`);
    process.exit(2);
  }
  const base = process.env.ADMIN_URL ?? `http://127.0.0.1:${config.PORT}`;
  const response = await fetch(new URL(path, base), {
    method: method.toUpperCase(),
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body,
  });
  const text = await response.text();
  process.stdout.write(`${response.status} ${text}\n`);
  process.exit(response.ok ? 0 : 1);
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
