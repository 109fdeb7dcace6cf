import { join } from 'node:path';
import { tempDir } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { durableList } from '../src/commands/durable';
import { agentIn, durableBridge, serveAgent, writeSources } from './durable-kit';

/**
 * `collie durable list` beside a bridge started in a process of its own making, as `collie demo`
 * starts one (no run file of `collie serve`): it asks the bridge on its devices socket and shows
 * each agent's state, an unreachable one's reason in words; with no bridge it says so.
 */
describe('collie durable list', () => {
  it('finds a bridge with no run file and shows each agent’s state; with none running says so', async () => {
    await using dir = await tempDir('collie-durable-list-');
    const env = { COLLIE_NO_SYSTEMD: '1', COLLIE_CONFIG_DIR: join(dir.path, 'config'), COLLIE_STATE_DIR: join(dir.path, 'state') };
    const desk = await serveAgent('socket', dir.path);
    const gone = join(dir.path, 'gone.sock');
    await writeSources(env.COLLIE_CONFIG_DIR, [desk.source, { name: 'gone', socket: gone }]);
    try {
      {
        await using bridge = await durableBridge(env.COLLIE_STATE_DIR, env.COLLIE_CONFIG_DIR);
        await agentIn(bridge.hub, 'desk');
        await agentIn(bridge.hub, 'gone', 'unreachable');
        expect((await durableList(env)).split('\n')).toEqual([
          `desk  ${desk.on.address}  local  ready`,
          `gone  ${gone}  local  unreachable: Nothing answers at its socket: the durable agent is not running, or listens elsewhere.`,
        ]);
      }
      expect(await durableList(env)).toContain(`desk  ${desk.on.address}  local  bridge not running`);
    } finally {
      await desk.on.close();
    }
  }, 60_000);
});
