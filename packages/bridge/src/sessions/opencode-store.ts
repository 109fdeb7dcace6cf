import { join } from 'node:path';
import { openReadOnly } from '../transcripts/opencode-db';
import { oneLine } from './heads';

/** One top-level OpenCode session row (a sub-agent's session belongs to the one that started it). */
export interface OpencodeSession {
  readonly db: string;
  readonly id: string;
  readonly folder: string | null;
  readonly title: string | null;
  /** The person's first message (its first text part that OpenCode did not write itself), for search. */
  readonly first: string | null;
  readonly updated: number;
  readonly size: number;
}

export function opencodeDb(root: string): string {
  return join(root, 'opencode.db');
}

/** A JSON field of a column, NULL (never an error that would end the query) when the column holds no JSON. */
const field = (col: string, key: string) => `CASE WHEN json_valid(${col}) THEN json_extract(${col}, '$.${key}') END`;
const text = (col: string) => `CASE WHEN json_valid(${col}) AND json_type(${col}, '$.text') = 'text' THEN json_extract(${col}, '$.text') END`;

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
           (SELECT ${text('p.data')} FROM part p JOIN message m ON m.id = p.message_id
             WHERE p.session_id = s.id AND ${field('m.data', 'role')} = 'user' AND ${field('p.data', 'type')} = 'text'
               AND COALESCE(${field('p.data', 'synthetic')}, 0) = 0 AND COALESCE(${field('p.data', 'ignored')}, 0) = 0
             ORDER BY m.time_created, m.rowid, p.rowid LIMIT 1) AS first
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
          first: oneLine(typeof o.first === 'string' ? o.first : null),
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
