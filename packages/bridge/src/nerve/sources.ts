/**
 * `COLLIE_NERVE_API`: where the bridge finds the Nerves it follows. A `:`-separated list (like
 * PATH) of absolute paths; an entry ending in `.json` is one Nerve's `api.json`, any other entry
 * is a folder of Nerve state dirs, each `<folder>/<name>/api.json` a Nerve (looked at again
 * every few seconds, so a Nerve started later is followed too). A pure parser.
 */
import { basename, dirname } from 'node:path';

export type NerveSource = { kind: 'file'; path: string } | { kind: 'folder'; path: string };

/** More entries than this is a mistake, not a setup. */
export const MAX_SOURCES = 32;
const MAX_LENGTH = 4000;

export type ParsedSources = { ok: true; sources: NerveSource[] } | { ok: false; message: string };

export function parseNerveSources(raw: string): ParsedSources {
  const bad = (message: string): ParsedSources => ({ ok: false, message });
  if (raw.length > MAX_LENGTH) return bad(`is longer than ${MAX_LENGTH} characters`);
  if (raw.includes('\0')) return bad('holds a NUL character');
  const entries = raw.split(':');
  if (entries.length > MAX_SOURCES) return bad(`names ${entries.length} places; at most ${MAX_SOURCES}`);
  const sources: NerveSource[] = [];
  const seen = new Set<string>();
  for (const [i, entry] of entries.entries()) {
    if (entry === '') return bad(entries.length === 1 ? 'is empty' : `entry ${i + 1} is empty (two ':' in a row, or one at an end)`);
    const shown = JSON.stringify(entry.slice(0, 100));
    if (!entry.startsWith('/')) return bad(`entry ${shown} is not an absolute path`);
    if (entry.split('/').includes('..')) return bad(`entry ${shown} climbs with '..'`);
    const path = entry.length > 1 ? entry.replace(/\/+$/, '') : entry;
    if (seen.has(path)) continue;
    seen.add(path);
    sources.push(path.endsWith('.json') ? { kind: 'file', path } : { kind: 'folder', path });
  }
  return { ok: true, sources };
}

/** A Nerve's name: the folder its api.json is in (`…/state/work/api.json` is `work`). */
export const nerveName = (apiFile: string): string => basename(dirname(apiFile)) || apiFile;
