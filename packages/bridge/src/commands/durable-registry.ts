import { join } from 'node:path';
import { readSources, watchSources } from '../durable/sources-file';
import { configOrThrow } from './config';
import { durableAdd, durableRemove } from './durable';

/**
 * sources.json for a program that lists itself while it runs (`collie durable acp`): it adds its
 * own socket, removes it when it stops, and stops when `collie durable remove` takes it out.
 */
export interface DurableRegistry {
  readonly socketDir: string;
  add(name: string, socket: string): Promise<void>;
  remove(name: string, socket: string): Promise<void>;
  watch(name: string, socket: string, gone: () => void): () => void;
}

export function durableRegistry(env: NodeJS.ProcessEnv = process.env): DurableRegistry {
  const config = configOrThrow(env);
  const listed = async (name: string) => (await readSources(config.configDir)).agents.find((a) => a.name === name);
  const ours = (a: Awaited<ReturnType<typeof listed>>, socket: string) => a !== undefined && 'socket' in a && a.socket === socket;
  return {
    socketDir: join(config.stateDir, 'durable'),
    async add(name, socket) {
      // Our own entry left by a run that was killed: the same socket, so it is taken over.
      if (ours(await listed(name), socket)) return;
      await durableAdd(name, socket, null, env);
    },
    async remove(name, socket) {
      if (ours(await listed(name), socket)) await durableRemove(name, env);
    },
    watch(name, socket, gone) {
      let told = false;
      return watchSources(config.configDir, () => {
        void readSources(config.configDir).then(({ agents, problem }) => {
          if (told || problem) return;
          if (!agents.some((a) => a.name === name && 'socket' in a && a.socket === socket)) {
            told = true;
            gone();
          }
        });
      });
    },
  };
}
