import { loadConfig } from '../../infra/config';
import { adminClient, noTokenMessage } from './admin-client';

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
  const call = adminClient(config);
  if (!call) {
    process.stderr.write(noTokenMessage(config));
    process.exit(2);
  }
  const { status, text } = await call(method, path, body);
  process.stdout.write(`${status} ${text}\n`);
  process.exit(status >= 200 && status < 300 ? 0 : 1);
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
