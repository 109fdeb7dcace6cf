/**
 * `<state>/audit.log`: one JSON line per thing the bridge did on someone's behalf. It is
 * capped: past `AUDIT_MAX_BYTES` it is renamed `audit.log.1` (the one older file kept) and
 * starts again, and no value in a line is longer than `AUDIT_MAX_VALUE` characters.
 */
import { open, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { WriteChain } from './write-chain';

/** One audit record. Callers pass values already masked: the log is not redacted here. */
export type AuditEntry = Readonly<Record<string, unknown>>;

/** The cap of `audit.log`; with `audit.log.1`, the log never holds more than twice this. */
export const AUDIT_MAX_BYTES = 1024 * 1024;
/** The longest string value a line keeps (a path, a reason); longer ones are cut and say so. */
export const AUDIT_MAX_VALUE = 200;

/** `text` whole when short, else its first `max` characters marked as cut, with the length it had. */
export function clipText(text: string, max = AUDIT_MAX_VALUE): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [cut: ${text.length} characters]`;
}

/** The entry with every string value, nested ones too, cut to `AUDIT_MAX_VALUE`. */
function clipped(value: unknown): unknown {
  if (typeof value === 'string') return clipText(value);
  if (Array.isArray(value)) return value.map(clipped);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipped(v)]));
  return value;
}

/** One chain per log file: this process's appends and rotations never overlap. */
const chains = new Map<string, WriteChain>();

export interface AuditLimits {
  /** Rotate before a line would take the file past this (default `AUDIT_MAX_BYTES`). */
  maxBytes?: number;
}

/**
 * Append one JSON line to `<stateDir>/audit.log` (mode 0600), stamped with `at` (ISO time)
 * unless the entry has its own. Each line goes out in one write to a file opened for
 * appending (O_APPEND), so lines from concurrent writers do not interleave. A line that would
 * take the file past its cap first moves it to `audit.log.1` (replacing the older one).
 *
 * @example
 * await appendAudit(config.stateDir, { action: 'pane.send', pane: 'default:%7', requestId });
 */
export function appendAudit(stateDir: string, entry: AuditEntry, now: () => number = Date.now, limits: AuditLimits = {}): Promise<void> {
  const file = join(stateDir, 'audit.log');
  const line = `${JSON.stringify(clipped({ at: new Date(now()).toISOString(), ...entry }))}\n`;
  const max = limits.maxBytes ?? AUDIT_MAX_BYTES;
  let chain = chains.get(file);
  if (!chain) chains.set(file, (chain = new WriteChain()));
  return chain.run(async () => {
    const st = await sizeOf(file);
    if (st > 0 && st + Buffer.byteLength(line) > max) await rename(file, `${file}.1`);
    const handle = await open(file, 'a', 0o600);
    try {
      if (((await handle.stat()).mode & 0o777) !== 0o600) await handle.chmod(0o600);
      await handle.writeFile(line);
    } finally {
      await handle.close();
    }
  });
}

/** The file's size, 0 when there is none yet. */
async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}

/** Resolves once every line queued for `<stateDir>/audit.log` so far is written. */
export async function auditWritten(stateDir: string): Promise<void> {
  await chains.get(join(stateDir, 'audit.log'))?.drain();
}
