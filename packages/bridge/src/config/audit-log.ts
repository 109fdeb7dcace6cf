/** `<state>/audit.log`: one JSON line per thing the bridge did on someone's behalf. */
import { open } from 'node:fs/promises';
import { join } from 'node:path';

/** One audit record. Callers pass values already masked: the log is not redacted here. */
export type AuditEntry = Readonly<Record<string, unknown>>;

/**
 * Append one JSON line to `<stateDir>/audit.log` (mode 0600), stamped with `at` (ISO time)
 * unless the entry has its own. Each line goes out in one write to a file opened for
 * appending (O_APPEND), so lines from concurrent writers do not interleave.
 *
 * @example
 * await appendAudit(config.stateDir, { action: 'pane.send', pane: 'default:%7', requestId });
 */
export async function appendAudit(stateDir: string, entry: AuditEntry, now: () => number = Date.now): Promise<void> {
  const line = `${JSON.stringify({ at: new Date(now()).toISOString(), ...entry })}\n`;
  const handle = await open(join(stateDir, 'audit.log'), 'a', 0o600);
  try {
    const st = await handle.stat();
    if ((st.mode & 0o777) !== 0o600) await handle.chmod(0o600);
    await handle.writeFile(line);
  } finally {
    await handle.close();
  }
}
