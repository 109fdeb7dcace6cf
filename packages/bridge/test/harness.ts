import { join } from 'node:path';
import type { ModelEvent } from '@collie/protocol';
import { startBridge, type Bridge } from '../src/bridge';
import type { EventHub } from '../src/events/hub';
import { webDir } from '../src/commands/paths';

/** The socket dir a private tmux server under `tmpDir` uses. */
export function socketDirOf(tmpDir: string): string {
  return join(tmpDir, `tmux-${process.getuid?.() ?? 0}`);
}

/** A bridge on port 0 that sees only the tmux servers under `tmuxTmpDir`. */
export function bridgeFor(tmuxTmpDir: string, stateDir: string, extra: { env?: NodeJS.ProcessEnv; redact?: boolean } = {}): Promise<Bridge> {
  return startBridge({
    stateDir,
    port: 0,
    host: '127.0.0.1',
    allowedHosts: [],
    machine: 'testbox',
    socketDir: socketDirOf(tmuxTmpDir),
    redact: extra.redact ?? true,
    webDir,
    version: 'test',
    env: extra.env ?? { ...process.env, TMUX_TMPDIR: tmuxTmpDir },
  });
}

/**
 * Resolves with the first model state for which `check` returns a value: checked now, then
 * after every event the hub publishes. Rejects after `ms` with what it was waiting for.
 */
export function until<T>(hub: EventHub, what: string, check: (hub: EventHub, event?: ModelEvent) => T | undefined | null | false, ms = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const first = check(hub);
    if (first) return resolve(first);
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out after ${ms} ms waiting for ${what}; panes: ${JSON.stringify([...hub.panes.values()].map((p) => [p.id, p.harness, p.state, p.dialog]))}`));
    }, ms);
    const off = hub.subscribe((e) => {
      const v = check(hub, e);
      if (v) {
        clearTimeout(timer);
        off();
        resolve(v);
      }
    });
  });
}

export const panesOf = (hub: EventHub) => [...hub.panes.values()];
