import type { Harness, ScreenReading } from '@collie/protocol';
import { agentVersion } from './agent-version';
import type { UnreadScreens } from './unread-screens';

/** Versions per pane process: looked up once per process, not per read. */
const MAX_KNOWN = 1000;

/**
 * The pane tracker's after-read hook: notes each agent and version seen, and keeps a sample of
 * a screen its reader could not read. Never throws, never delays the read.
 */
export function unreadHook(store: UnreadScreens, version: typeof agentVersion = agentVersion) {
  const known = new Map<string, Promise<string>>();
  return (harness: Harness, pid: number, reading: ScreenReading, screen: string): void => {
    if (harness === 'shell') return;
    const key = `${pid}:${harness}`;
    let v = known.get(key);
    if (!v) {
      if (known.size >= MAX_KNOWN) known.clear();
      v = version(pid, harness).catch(() => 'unknown');
      known.set(key, v);
    }
    void v.then((ver) => store.note(harness, ver, reading.reason !== undefined ? screen : null)).catch(() => undefined);
  };
}
