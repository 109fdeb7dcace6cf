import type { ModelEvent } from '@collie/protocol';
import { startBridge, type Bridge, type BridgeOptions } from '../src/bridge';
import type { EventHub } from '../src/events/hub';
import { testBridgeOptions, testDevice, type TestDevice } from '@collie/testkit';

/** A bridge under test and the paired device its test clients present. */
export type TestBridge = Bridge & { device: TestDevice };

/** A bridge on port 0 that sees only the tmux servers under `tmuxTmpDir`, with a paired test device. */
export async function bridgeFor(tmuxTmpDir: string, stateDir: string, extra: Partial<Pick<BridgeOptions, 'redact' | 'holdMs' | 'env' | 'configDir' | 'sessionRoots'>> = {}): Promise<TestBridge> {
  const device = await testDevice(stateDir);
  return Object.assign(await startBridge(testBridgeOptions(tmuxTmpDir, stateDir, extra)), { device });
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
