/**
 * `collie demo`'s durable agent: the example desk (packages/durable-sdk/examples/desk) on a
 * socket in the state dir, attached in sources.json as `desk` beside the demo's panes, and
 * detached again when the demo ends. A `desk` entry left on the same socket by a demo that was
 * killed is taken over; a `desk` of the person's own (another address) is left alone.
 */
import { join } from 'node:path';
import { configOrThrow } from '../../bridge/src/commands/config';
import { durableAdd, durableRemove } from '../../bridge/src/commands/durable';
import { ensureStateDir } from '../../bridge/src/config';
import { readSources } from '../../bridge/src/durable/sources-file';
import { startDesk, type Desk } from '../../durable-sdk/examples/desk/desk';

export interface DemoDesk {
  readonly desk: Desk;
  /** Whether sources.json lists this desk (false: the person's own `desk` is there). */
  readonly attached: boolean;
  /** Remove it from sources.json (when the demo attached it) and stop it. */
  stop(): Promise<void>;
}

export async function attachDemoDesk(env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<DemoDesk> {
  const config = configOrThrow(env);
  await ensureStateDir(config.stateDir);
  const desk = await startDesk({ socket: join(config.stateDir, 'demo-desk.sock') });
  let attached = false;
  try {
    const { agents } = await readSources(config.configDir);
    const had = agents.find((a) => a.name === 'desk');
    if (had && 'socket' in had && had.socket === desk.listening.address) {
      attached = true;
      log(`attached desk (local): ${desk.listening.address}`);
    } else {
      log(await durableAdd('desk', desk.listening.address, null, env));
      attached = true;
    }
  } catch (err) {
    log(`The durable agent desk is not attached: ${err instanceof Error ? err.message : String(err)}`);
  }
  return {
    desk,
    attached,
    async stop() {
      if (attached) await durableRemove('desk', env).catch(() => undefined);
      await desk.close();
    },
  };
}
