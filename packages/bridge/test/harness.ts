import type { ModelEvent } from '@collie/protocol';
import { startBridge, type Bridge } from '../src/bridge';
import type { EventHub } from '../src/events/hub';
import { testBridgeOptions } from '@collie/testkit';

/** A bridge on port 0 that sees only the tmux servers under `tmuxTmpDir`. */
export function bridgeFor(tmuxTmpDir: string, stateDir: string, extra: { redact?: boolean } = {}): Promise<Bridge> {
  return startBridge(testBridgeOptions(tmuxTmpDir, stateDir, extra));
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
