import { join } from 'node:path';
import { readSeen, unreadDir } from './unread-screens';

/**
 * `collie doctor`'s line on the agents: each agent and version the bridge saw, and the screens it
 * could not read with the sample kept for a report. Saying so is not a failure of the setup.
 *
 * @example
 * // { name: 'agents', ok: true, detail: 'claude 2.1.334; codex 0.171.0: 2 screens Collie could not read, sample …/unread-screens/codex-0.171.0.txt' }
 */
export async function agentsCheck(stateDir: string): Promise<{ name: string; ok: boolean; detail: string }> {
  const seen = await readSeen(stateDir);
  const parts: string[] = [];
  for (const [agent, versions] of Object.entries(seen)) {
    for (const [version, v] of Object.entries(versions)) {
      const unread = v.unread === 0 ? '' : `: ${v.unread} screen${v.unread === 1 ? '' : 's'} Collie could not read${v.sample ? `, sample ${join(unreadDir(stateDir), v.sample)} (please report it)` : ''}`;
      parts.push(`${agent} ${version}${unread}`);
    }
  }
  return { name: 'agents', ok: true, detail: parts.length === 0 ? 'none seen yet' : parts.join('; ') };
}
