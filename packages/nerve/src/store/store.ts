/**
 * Records and transcripts, stored. Status changes are written at once; transcript lines and
 * progress are written behind, in one transaction per flush (about once a second per session,
 * spec "Restarts"), so a kill -9 loses at most the last second of transcript, never a status.
 */
import { AgentTranscriptEvent, AgentRecord, LIVE_STATUSES, type InterruptReason } from '@collie/protocol';
import type { Db } from './db';

export interface StoredSession {
  session_id: string;
  title: string;
  model: string;
  runtime_session_id: string | null;
  archived: boolean;
  reminder: string | null;
  created_at: number;
}

export interface SessionLine {
  id: number;
  session_id: string;
  kind: 'user' | 'reply';
  text: string;
  request_id: string | null;
  at: number;
}

export class Store {
  private readonly behindRecords = new Map<string, AgentRecord>();
  private behindEvents: AgentTranscriptEvent[] = [];
  private readonly putRecord;
  private readonly putEvent;

  constructor(readonly db: Db) {
    this.putRecord = db.prepare(
      'INSERT INTO session_agents (agent_id, session_id, status, record, updated_at) VALUES (?, ?, ?, ?, ?) ' +
        'ON CONFLICT(agent_id) DO UPDATE SET status = excluded.status, record = excluded.record, updated_at = excluded.updated_at',
    );
    this.putEvent = db.prepare('INSERT OR IGNORE INTO session_agent_events (agent_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)');
  }

  /** A record: at once when its status changed, else with the next flush. */
  record(r: AgentRecord, statusChanged: boolean): void {
    if (!statusChanged) {
      this.behindRecords.set(r.agent_id, r);
      return;
    }
    this.behindRecords.delete(r.agent_id);
    this.writeRecord(r);
  }

  /** A transcript line, written behind. */
  event(e: AgentTranscriptEvent): void {
    this.behindEvents.push(e);
  }

  /** Writes everything held behind in one transaction. Returns how many rows it wrote. */
  flush(): number {
    if (this.behindRecords.size === 0 && this.behindEvents.length === 0) return 0;
    const records = [...this.behindRecords.values()];
    const events = this.behindEvents;
    this.behindRecords.clear();
    this.behindEvents = [];
    this.db.transaction(() => {
      for (const r of records) this.writeRecord(r);
      for (const e of events) this.putEvent.run(e.agent_id, e.seq, e.kind, JSON.stringify(e.payload), e.at);
    })();
    return records.length + events.length;
  }

  private writeRecord(r: AgentRecord): void {
    this.putRecord.run(r.agent_id, r.session_id, r.status, JSON.stringify({ ...r, attention: [] }), r.last_activity_at);
  }

  agents(sessionId: string): AgentRecord[] {
    const rows = this.db.prepare('SELECT record FROM session_agents WHERE session_id = ? ORDER BY rowid').all(sessionId) as Array<{ record: string }>;
    return rows.map((row) => AgentRecord.parse(JSON.parse(row.record)));
  }

  transcript(agentId: string, after = -1, limit = 500): AgentTranscriptEvent[] {
    const rows = this.db
      .prepare('SELECT agent_id, seq, kind, payload, at FROM session_agent_events WHERE agent_id = ? AND seq > ? ORDER BY seq LIMIT ?')
      .all(agentId, after, limit) as Array<{ agent_id: string; seq: number; kind: string; payload: string; at: number }>;
    return rows.map((row) => AgentTranscriptEvent.parse({ ...row, payload: JSON.parse(row.payload) }));
  }

  nextSeq(agentId: string): number {
    const row = this.db.prepare('SELECT MAX(seq) AS m FROM session_agent_events WHERE agent_id = ?').get(agentId) as { m: number | null } | undefined;
    return (row?.m ?? -1) + 1;
  }

  /**
   * At start: records left live by a gateway that went away (a crash, a kill -9) settle as
   * interrupted (gateway_restart). Returns them per session, for each session's reminder.
   */
  settleLeftovers(now: number, reason: InterruptReason = 'gateway_restart'): Map<string, AgentRecord[]> {
    const marks = LIVE_STATUSES.map(() => '?').join(', ');
    const rows = this.db.prepare(`SELECT record FROM session_agents WHERE status IN (${marks})`).all(...LIVE_STATUSES) as Array<{ record: string }>;
    const out = new Map<string, AgentRecord[]>();
    this.db.transaction(() => {
      for (const row of rows) {
        const r: AgentRecord = { ...AgentRecord.parse(JSON.parse(row.record)), status: 'interrupted', reason, ended_at: now, last_activity_at: now };
        this.writeRecord(r);
        out.set(r.session_id, [...(out.get(r.session_id) ?? []), r]);
      }
    })();
    return out;
  }

  putSession(s: StoredSession): void {
    this.db
      .prepare(
        'INSERT INTO sessions (session_id, title, model, runtime_session_id, archived, reminder, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) ' +
          'ON CONFLICT(session_id) DO UPDATE SET title = excluded.title, model = excluded.model, runtime_session_id = excluded.runtime_session_id, ' +
          'archived = excluded.archived, reminder = excluded.reminder',
      )
      .run(s.session_id, s.title, s.model, s.runtime_session_id, s.archived ? 1 : 0, s.reminder, s.created_at);
  }

  sessions(): StoredSession[] {
    const rows = this.db.prepare('SELECT * FROM sessions ORDER BY created_at').all() as Array<Omit<StoredSession, 'archived'> & { archived: number }>;
    return rows.map((r) => ({ ...r, archived: r.archived === 1 }));
  }

  deleteSession(sessionId: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM session_agent_events WHERE agent_id IN (SELECT agent_id FROM session_agents WHERE session_id = ?)').run(sessionId);
      this.db.prepare('DELETE FROM session_agents WHERE session_id = ?').run(sessionId);
      this.db.prepare('DELETE FROM session_events WHERE session_id = ?').run(sessionId);
      this.db.prepare('DELETE FROM session_lines WHERE session_id = ?').run(sessionId);
      this.db.prepare('DELETE FROM sessions WHERE session_id = ?').run(sessionId);
    })();
  }

  /** A line of the conversation (a message as its turn started, or a reply), written at once so a kill -9 keeps it. */
  line(l: Omit<SessionLine, 'id'>): SessionLine {
    const r = this.db.prepare('INSERT INTO session_lines (session_id, kind, text, request_id, at) VALUES (?, ?, ?, ?, ?)').run(l.session_id, l.kind, l.text, l.request_id, l.at);
    return { ...l, id: Number(r.lastInsertRowid) };
  }

  /** The conversation's lines in the order they happened. */
  lines(sessionId: string): SessionLine[] {
    return this.db.prepare('SELECT id, session_id, kind, text, request_id, at FROM session_lines WHERE session_id = ? ORDER BY id').all(sessionId) as SessionLine[];
  }

  /** A stop, recorded as a session event with who asked. */
  sessionEvent(sessionId: string, name: string, requestedBy: string, details: Record<string, unknown>, at: number): void {
    this.db.prepare('INSERT INTO session_events (session_id, name, requested_by, details, at) VALUES (?, ?, ?, ?, ?)').run(sessionId, name, requestedBy, JSON.stringify(details), at);
  }

  sessionEvents(sessionId: string): Array<{ name: string; requested_by: string; details: Record<string, unknown>; at: number }> {
    const rows = this.db.prepare('SELECT name, requested_by, details, at FROM session_events WHERE session_id = ? ORDER BY id').all(sessionId) as Array<{
      name: string;
      requested_by: string;
      details: string;
      at: number;
    }>;
    return rows.map((r) => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> }));
  }
}
