import { ensureStateDir } from '../config';
import { ensureVapidKeys, vapidFile } from '../push/keys';
import { configOrThrow } from './config';

/**
 * `collie push keys`: the bridge's VAPID key pair in `<state>/push/vapid.json` (0600), made
 * the first time and kept after (new keys would orphan every phone's subscription). Prints
 * the public key, the application server key a browser subscribes with.
 */
export async function pushKeys(env: NodeJS.ProcessEnv = process.env): Promise<{ publicKey: string; file: string; created: boolean }> {
  const { stateDir } = configOrThrow(env);
  await ensureStateDir(stateDir);
  const { keys, created } = await ensureVapidKeys(stateDir);
  return { publicKey: keys.publicKey, file: vapidFile(stateDir), created };
}
