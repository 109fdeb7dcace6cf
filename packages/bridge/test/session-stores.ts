import { randomUUID } from 'node:crypto';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import type { SessionAgent } from '@collie/protocol';
import type { StoreRoots } from '../src/sessions';

/**
 * Sessions written straight into each agent's store in its real format (the formats
 * bench/sessions.mjs generates, as each program writes them): Claude Code's projects folder,
 * Codex's dated rollouts, Gemini CLI's chats under a project named in `projects.json`, OpenCode's
 * database, pi's session folders. Each session is one person's message and one answer.
 */
export interface StoreSession {
  readonly agent: SessionAgent;
  readonly folder: string;
  readonly first: string;
  /** A title the agent writes (Claude Code's custom title, OpenCode's title column). */
  readonly title?: string;
  /** Last activity, epoch ms. */
  readonly at: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class SessionStores {
  readonly roots: StoreRoots;
  #geminiProjects: Record<string, string> = {};
  #db: Database.Database | null = null;

  constructor(readonly home: string) {
    this.roots = { claude: [join(home, '.claude')], codex: [join(home, '.codex')], gemini: [join(home, '.gemini')], opencode: [join(home, '.local', 'share', 'opencode')], pi: [join(home, '.pi', 'agent')] };
  }

  /** Writes one session; its id (what the Sessions page lists it by). */
  write(s: StoreSession): string {
    const id = s.agent === 'opencode' ? `ses_${randomUUID().replace(/-/g, '').slice(0, 26)}` : randomUUID();
    const answer = `Answer to ${s.first}`;
    let path: string;
    let lines: unknown[];
    if (s.agent === 'claude') {
      const d = join(this.home, '.claude', 'projects', s.folder.replace(/[^A-Za-z0-9]/g, '-'));
      mkdirSync(d, { recursive: true });
      path = join(d, `${id}.jsonl`);
      lines = [
        { type: 'user', sessionId: id, cwd: s.folder, timestamp: iso(s.at), uuid: randomUUID(), message: { role: 'user', content: s.first } },
        { type: 'assistant', sessionId: id, cwd: s.folder, timestamp: iso(s.at), uuid: randomUUID(), message: { role: 'assistant', content: [{ type: 'text', text: answer }] } },
        ...(s.title ? [{ type: 'custom-title', customTitle: s.title, sessionId: id }] : []),
      ];
    } else if (s.agent === 'codex') {
      const day = new Date(s.at);
      const d = join(this.home, '.codex', 'sessions', String(day.getUTCFullYear()), String(day.getUTCMonth() + 1).padStart(2, '0'), String(day.getUTCDate()).padStart(2, '0'));
      mkdirSync(d, { recursive: true });
      path = join(d, `rollout-${iso(s.at).replace(/[:.]/g, '-')}-${id}.jsonl`);
      lines = [
        { timestamp: iso(s.at), type: 'session_meta', payload: { id, timestamp: iso(s.at), cwd: s.folder, originator: 'codex_cli_rs', cli_version: '0.171.0', instructions: 'x'.repeat(4000) } },
        { timestamp: iso(s.at), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: s.first }] } },
        { timestamp: iso(s.at), type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: answer }] } },
      ];
    } else if (s.agent === 'gemini') {
      const project = (this.#geminiProjects[s.folder] ??= `project-${Object.keys(this.#geminiProjects).length}`);
      const d = join(this.home, '.gemini', 'tmp', project, 'chats');
      mkdirSync(d, { recursive: true });
      writeFileSync(join(this.home, '.gemini', 'projects.json'), JSON.stringify({ projects: this.#geminiProjects }));
      path = join(d, `session-${iso(s.at).slice(0, 16).replace(/:/g, '-')}-${id.slice(0, 8)}.jsonl`);
      lines = [
        { sessionId: id, projectHash: 'x', startTime: iso(s.at), lastUpdated: iso(s.at), kind: 'main' },
        { id: randomUUID(), timestamp: iso(s.at), type: 'user', content: [{ text: s.first }] },
        { id: randomUUID(), timestamp: iso(s.at), type: 'gemini', content: answer },
      ];
    } else if (s.agent === 'pi') {
      const d = join(this.home, '.pi', 'agent', 'sessions', `--${s.folder.slice(1).replace(/\//g, '-')}--`);
      mkdirSync(d, { recursive: true });
      path = join(d, `${iso(s.at).replace(/[:.]/g, '-')}_${id}.jsonl`);
      lines = [
        { type: 'session', version: 3, id, timestamp: iso(s.at), cwd: s.folder },
        { type: 'message', id: 'm0', parentId: null, timestamp: iso(s.at), message: { role: 'user', content: [{ type: 'text', text: s.first }] } },
        { type: 'message', id: 'm1', parentId: 'm0', timestamp: iso(s.at), message: { role: 'assistant', content: [{ type: 'text', text: answer }] } },
      ];
    } else {
      const db = this.#opencode();
      db.prepare('INSERT INTO session VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?)').run(id, 'p', id, s.folder, s.title ?? s.first, '1.18', s.at, s.at);
      for (const [k, [role, text]] of ([['user', s.first], ['assistant', answer]] as const).entries()) {
        db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run(`msg_${id}_${k}`, id, s.at + k, s.at + k, JSON.stringify({ role, time: { created: s.at + k } }));
        db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)').run(`prt_${id}_${k}`, `msg_${id}_${k}`, id, s.at + k, s.at + k, JSON.stringify({ type: 'text', text }));
      }
      return id;
    }
    writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    utimesSync(path, new Date(s.at), new Date(s.at));
    return id;
  }

  #opencode(): Database.Database {
    if (this.#db) return this.#db;
    const dir = join(this.home, '.local', 'share', 'opencode');
    mkdirSync(dir, { recursive: true });
    const db = new Database(join(dir, 'opencode.db'));
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(`CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX part_session_idx ON part (session_id);`);
    return (this.#db = db);
  }

  close(): void {
    this.#db?.close();
    this.#db = null;
  }
}
