import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SourcesFile, type Source } from '@collie/protocol';

export const SOURCES_FILE = 'sources.json';

/** sources.json read and validated: its agents, or a problem in words (and no agents). */
export async function readSources(configDir: string): Promise<{ agents: Source[]; problem: string | null }> {
  let text: string;
  try {
    text = await readFile(join(configDir, SOURCES_FILE), 'utf8');
  } catch {
    return { agents: [], problem: null };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { agents: [], problem: `${SOURCES_FILE} is not valid JSON` };
  }
  const parsed = SourcesFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { agents: [], problem: `${SOURCES_FILE}: ${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'does not match'}` };
  }
  const names = new Set<string>();
  const agents = parsed.data.agents.filter((a) => !names.has(a.name) && names.add(a.name));
  return { agents, problem: null };
}

/**
 * Calls `changed` when sources.json may have changed: the config dir is watched (the file is
 * replaced by rename, so watching the file itself would lose it), coalesced over 50 ms. A dir
 * that does not exist yet is looked for again every 5 s.
 */
export function watchSources(configDir: string, changed: () => void): () => void {
  let w: FSWatcher | null = null;
  let timer: NodeJS.Timeout | null = null;
  let retry: NodeJS.Timeout | null = null;
  const kick = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(changed, 50);
  };
  const arm = () => {
    try {
      w = watch(configDir, (_e, file) => (file === null || file === SOURCES_FILE ? kick() : undefined));
      w.on('error', () => {
        w?.close();
        w = null;
        retry = setTimeout(arm, 5_000);
      });
      kick();
    } catch {
      retry = setTimeout(arm, 5_000);
      retry.unref();
    }
  };
  arm();
  return () => {
    w?.close();
    if (timer) clearTimeout(timer);
    if (retry) clearTimeout(retry);
  };
}
