import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a generated operator token is kept. */
export const adminTokenFile = (dataDir: string): string => join(dataDir, 'admin-token');

/**
 * The operator token: `ADMIN_TOKEN` when set; otherwise one generated on first start and kept in
 * the data directory (readable by its owner only). `created` tells the caller to print it once.
 */
export const resolveAdminToken = (dataDir: string, configured: string | undefined): { token: string; created: boolean } => {
  if (configured) return { token: configured, created: false };
  const file = adminTokenFile(dataDir);
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), created: false };
  mkdirSync(dataDir, { recursive: true });
  const token = `admin_${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { token, created: true };
};
