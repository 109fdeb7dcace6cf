import type { Harness, KeyName } from '@collie/protocol';
import { AGENTS } from '../harness/agents';

/** The tmux key names for the phone's keys; every name is a tmux key name but `Stop`. */
export function tmuxKeys(keys: readonly KeyName[], harness: Harness): string[] {
  return keys.map((k) => (k === 'Stop' ? AGENTS[harness].stopKey : k));
}
