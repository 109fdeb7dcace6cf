/**
 * The only code that speaks SQLite (libsql, better-sqlite3's API prebuilt: docs/adr/0005).
 * One file in the state dir, WAL mode; the tables the spec names: session_agents and
 * session_agent_events, beside sessions, session_lines (the conversation the phone shows) and
 * session_events.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'libsql';

export type Db = InstanceType<typeof Database>;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  session_id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  model TEXT NOT NULL,
  runtime_session_id TEXT,
  archived INTEGER NOT NULL DEFAULT 0,
  reminder TEXT,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS session_agents (
  agent_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  record TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS session_agents_session ON session_agents(session_id);
CREATE INDEX IF NOT EXISTS session_agents_status ON session_agents(status);
CREATE TABLE IF NOT EXISTS session_agent_events (
  agent_id TEXT NOT NULL REFERENCES session_agents(agent_id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (agent_id, seq)
);
CREATE TABLE IF NOT EXISTS session_lines (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  request_id TEXT,
  at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS session_lines_session ON session_lines(session_id);
CREATE TABLE IF NOT EXISTS session_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  requested_by TEXT NOT NULL,
  details TEXT NOT NULL,
  at INTEGER NOT NULL
);
`;

/** Opens (and creates) the database at `path`: dir 0700, file 0600, WAL, foreign keys on. */
export function openDb(path: string): Db {
  const dir = dirname(path);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const db = new Database(path);
  chmodSync(path, 0o600);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec(SCHEMA);
  return db;
}
