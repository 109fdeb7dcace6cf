import { createServer } from 'node:net';
import { join } from 'node:path';
import { tempDir } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { agentIn, durableBridge, writeSources } from './durable-kit';

/**
 * A durable agent the bridge keeps retrying (here: a socket that hangs up on every call) must
 * not pile listeners on the link's one wake signal: each back-off sleep used to add an abort
 * listener that stayed after its timer fired, and the eleventh warned MaxListenersExceededWarning
 * (as `collie demo` logged). Fifteen retries later, no such warning.
 */
describe('a durable agent retried many times', () => {
  it('adds no lasting listener per retry (no MaxListenersExceededWarning)', async () => {
    await using dir = await tempDir('collie-durable-retry-');
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    let calls = 0;
    let enough!: () => void;
    const fifteen = new Promise<void>((r) => (enough = r));
    const socket = join(dir.path, 'hangup.sock');
    const server = createServer((c) => {
      if (++calls === 15) enough();
      c.destroy();
    });
    await new Promise<void>((r) => server.listen(socket, r));
    try {
      await writeSources(join(dir.path, 'config'), [{ name: 'hangup', socket }]);
      await using bridge = await durableBridge(join(dir.path, 'state'), join(dir.path, 'config'));
      const a = await agentIn(bridge.hub, 'hangup', 'unreachable');
      expect(a.problem).toBe('The connection dropped on the way.');
      await fifteen;
      // A warning is emitted on the next tick after the listener that crossed the limit.
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => /MaxListeners/.test(w))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await new Promise((r) => server.close(r));
    }
  }, 60_000);
});
