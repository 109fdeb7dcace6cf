import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config';
import { skillStatus } from '../skill';
import { findSs, selfProof, SS_DIRS } from '../walky/peer';
import type { Check } from './doctor-check';
import { skillContext } from './skill';

/** Why `walky-proof` fails: the bridge then answers every call `not_proved` (docs/walky.md). */
const UNPROVED = 'the bridge cannot prove which pane calls, and answers every collie walky call not_proved';

/**
 * The walky rows of `collie doctor`: the socket, the proof of the calling pane, the refusals per
 * reason, the skill's copies. `ssDirs`: where `ss` is looked for after `PATH` (the bridge's own).
 */
export async function walkyChecks(config: Config, env: NodeJS.ProcessEnv, ssDirs: readonly string[] = SS_DIRS): Promise<Check[]> {
  const dir = join(config.stateDir, 'walky');
  const checks: Check[] = [];
  const sock = await stat(join(dir, 'sock')).catch(() => null);
  const off = config.walky ? '' : '; COLLIE_WALKY=off: every message for this machine\'s panes is refused (not sent: off)';
  if (!sock) checks.push({ name: 'walky', ok: true, detail: `no socket yet at ${join(dir, 'sock')} (the bridge opens it)${off}` });
  else {
    const mode = sock.mode & 0o777;
    checks.push({ name: 'walky', ok: mode === 0o600, detail: `${join(dir, 'sock')} (mode ${mode.toString(8).padStart(4, '0')}${mode === 0o600 ? '' : ', must be 0600'})${off}` });
  }
  // The bridge proves a caller's pane by its end of the connection, which only ss reads (docs/walky.md):
  // the proof is made here once, end to end, on a connection of this process's own.
  if (process.platform === 'linux') checks.push(await proofCheck(env, ssDirs));
  let reasons: Record<string, { count: number }> = {};
  try {
    reasons = (JSON.parse(await readFile(join(dir, 'refusals.json'), 'utf8')) as { reasons: Record<string, { count: number }> }).reasons ?? {};
  } catch {
    // none yet
  }
  const list = Object.entries(reasons).sort((a, b) => b[1].count - a[1].count);
  checks.push({ name: 'walky-refusals', ok: true, detail: list.length ? list.map(([r, v]) => `${v.count} × ${r}`).join(', ') : 'none' });
  const rows = await skillStatus(skillContext(env));
  const by = (s: string) => rows.filter((r) => r.status === s).map((r) => r.harness);
  const stale = by('stale');
  const refused = by('refused');
  const parts = [`installed: ${by('installed').join(', ') || 'none'}`, ...(stale.length ? [`stale: ${stale.join(', ')} (run collie skill sync)`] : []), ...(refused.length ? [`refused: ${refused.join(', ')}`] : [])];
  checks.push({ name: 'skill-walky-talky', ok: stale.length === 0, detail: parts.join('; ') });
  return checks;
}

async function proofCheck(env: NodeJS.ProcessEnv, ssDirs: readonly string[]): Promise<Check> {
  const ss = await findSs(env, ssDirs);
  if (ss === null) return { name: 'walky-proof', ok: false, detail: `ss (iproute2) is not installed: ${UNPROVED}` };
  const proof = await selfProof(ss);
  if (proof.ok) return { name: 'walky-proof', ok: true, detail: `the bridge proves which pane calls: a test connection was proved with ${ss}` };
  return { name: 'walky-proof', ok: false, detail: `a test connection was not proved (${proof.why.replace(/^walky: /, '')}): ${UNPROVED}` };
}
