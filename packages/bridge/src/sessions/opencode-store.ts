import { join } from 'node:path';
import { openReadOnly } from '../transcripts/opencode-db';
import { oneLine } from './heads';

/** One top-level OpenCode session row (a sub-agent's session belongs to the one that started it). */
export interface OpencodeSession {
  readonly db: string;
  readonly id: string;
  readonly folder: string | null;
  readonly title: string | null;
  /** The person's first message (its first text part), for the search. */
  readonly first: string | null;
  readonly updated: number;
  readonly size: number;
}

export function opencodeDb(root: string): string {
  return join(root, 'opencode.db');
}

const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : NaN);

/**
 * Every top-level session of the OpenCode database at `db`, read-only (`mode=ro`: nothing
 * written, no lock held past the one query). The size is the bytes of its stored messages and
 * parts. An unreadable or missing database gives none.
 */
export function opencodeSessions(db: string): OpencodeSession[] {
  let conn: ReturnType<typeof openReadOnly> | null = null;
  try {
    conn = openReadOnly(db);
    const rows = conn
      .prepare(
        `SELECT s.id AS id, s.directory AS folder, s.title AS title, s.time_updated AS updated,
           (SELECT COALESCE(SUM(LENGTH(p.data)), 0) FROM part p WHERE p.session_id = s.id) AS size,
           (SELECT json_extract(p.data, '$.text') FROM part p JOIN message m ON m.id = p.message_id
             WHERE p.session_id = s.id AND json_extract(m.data, '$.role') = 'user' AND json_extract(p.data, '$.type') = 'text'
               AND COALESCE(json_extract(p.data, '$.synthetic'), 0) = 0
             ORDER BY m.time_created, m.id, p.id LIMIT 1) AS first
         FROM session s WHERE s.parent_id IS NULL`,
      )
      .all() as unknown[];
    return rows.flatMap((r) => {
      const o = r as Record<string, unknown>;
      if (typeof o.id !== 'string') return [];
      const updated = num(o.updated);
      const size = num(o.size);
      return [
        {
          db,
          id: o.id,
          folder: typeof o.folder === 'string' && o.folder !== '' ? o.folder : null,
          title: typeof o.title === 'string' ? oneLine(o.title) : null,
          first: typeof o.first === 'string' ? oneLine(o.first) : null,
          updated: Number.isFinite(updated) ? updated : 0,
          size: Number.isFinite(size) && size >= 0 ? Math.floor(size) : 0,
        },
      ];
    });
  } catch {
    return [];
  } finally {
    conn?.close();
  }
}
