/**
 * Nerve's API credential: a bearer token kept in `<state_dir>/api.json` (0600, beside
 * `nerve.db`) with the address the API listens on. Every route and the event socket need it;
 * the bridge reads the same file to reach Nerve for a paired device (docs/nerve-api.md).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NerveApiFile, nerveBearer } from '@collie/protocol';

export const API_FILE = 'api.json';

/** The token of a previous run in `stateDir` (so clients keep working across restarts), else a new one. */
export function loadToken(stateDir: string): string {
  const file = join(stateDir, API_FILE);
  if (existsSync(file)) {
    try {
      const got = NerveApiFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (got.success) return got.data.token;
    } catch {
      // A torn or hand-edited file: a new token replaces it.
    }
  }
  return `nrv_${randomBytes(24).toString('hex')}`;
}

/** Writes `{url, token}` atomically, 0600 in a 0700 dir. */
export function writeApiFile(stateDir: string, url: string, token: string): string {
  if (!existsSync(stateDir)) mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const file = join(stateDir, API_FILE);
  const tmp = join(dirname(file), `.${API_FILE}.${process.pid}.tmp`);
  writeFileSync(tmp, `${JSON.stringify({ url, token })}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return file;
}

export type CredentialCheck = { ok: true } | { ok: false; message: string };

/** The one check of a request's `Authorization` header against the token. */
export function checkCredential(header: string | undefined | null, token: string): CredentialCheck {
  if (header === undefined || header === null || header === '') {
    return { ok: false, message: 'nerve: this API needs its credential: Authorization: Bearer <token> (the token is in api.json in the state dir)' };
  }
  const got = nerveBearer(header);
  if (got === null) return { ok: false, message: 'nerve: the Authorization header must be "Bearer <token>"' };
  const a = Buffer.from(got);
  const b = Buffer.from(token);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return { ok: false, message: 'nerve: that token is not this Nerve\'s (read api.json in its state dir again)' };
  return { ok: true };
}
