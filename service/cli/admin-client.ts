import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../infra/config';

export type AdminClient = (method: string, path: string, body?: string) => Promise<{ status: number; text: string }>;

/**
 * Calls the operator API of the running service: its address is ADMIN_URL (default
 * http://127.0.0.1:$PORT), its token ADMIN_TOKEN or $DATA_DIR/admin-token. Null without a token.
 */
export const adminClient = (config: Config): AdminClient | null => {
  const tokenFile = join(config.DATA_DIR, 'admin-token');
  const token = config.ADMIN_TOKEN ?? (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : null);
  if (!token) return null;
  const base = process.env.ADMIN_URL ?? `http://127.0.0.1:${config.PORT}`;
  return async (method, path, body) => {
    const response = await fetch(new URL(path, base), {
      method: method.toUpperCase(),
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body,
    });
    return { status: response.status, text: await response.text() };
  };
};

export const noTokenMessage = (config: Config): string =>
  `no ADMIN_TOKEN and no ${join(config.DATA_DIR, 'admin-token')}: start the service once, or set ADMIN_TOKEN\n`;
