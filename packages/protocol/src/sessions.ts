import { z } from 'zod';
import { DurableItem } from './durable/model';

/**
 * Every past session of every supported agent on a machine, read from the agents' own stores
 * (Claude Code's projects folder, Codex's session logs, Gemini CLI's chats, OpenCode's
 * database, pi's session files), never written.
 */

export const SESSION_AGENTS = ['claude', 'codex', 'gemini', 'opencode', 'pi'] as const;
export const SessionAgent = z.enum(SESSION_AGENTS);
export type SessionAgent = z.infer<typeof SessionAgent>;

/** One session as the Sessions page lists it; every text masked. */
export const SessionSummary = z.object({
  agent: SessionAgent,
  /** The agent's own session id (what its resume command takes). */
  id: z.string(),
  /** The folder it ran in, when its store says. */
  folder: z.string().nullable(),
  /** `<repo>#<branch>` of the folder, or its name. */
  label: z.string().nullable(),
  /** Its title when the agent wrote one, else its first message (one line, cut short). */
  title: z.string().nullable(),
  /** Last activity, epoch ms. */
  updated: z.number(),
  /** Bytes on disk (OpenCode: the session's stored parts). */
  size: z.number().int().nonnegative(),
  /** The pane that runs it now (`<server>:<%id>`), or null. */
  pane: z.string().nullable(),
  /** The crew machine that holds it (on a lead's list: a member's name, or the lead's own), or null outside a crew. */
  machine: z.string().nullable().default(null),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

/** `GET /api/sessions?agent=&folder=&q=&cursor=&limit=`. */
export const SessionsQuery = z.object({
  agent: SessionAgent.optional(),
  /** Exactly this folder. */
  folder: z.string().min(1).max(4096).optional(),
  /** Words, each found (case-insensitive) in the title or the first message. */
  q: z.string().max(200).optional(),
  /** From an earlier page's `next`. */
  cursor: z.string().max(4000).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** In a crew, on the lead: only this machine's sessions (a member's name, or the lead's own). */
  machine: z.string().min(1).max(100).optional(),
});
export type SessionsQuery = z.infer<typeof SessionsQuery>;

export const SessionsPage = z.object({
  /** Newest first. */
  sessions: z.array(SessionSummary),
  /** The cursor of the next page, or null at the end. */
  next: z.string().nullable(),
  /** Folders that have sessions, for the filter (newest first). */
  folders: z.array(z.string()),
  /** In a crew, on the lead: members whose sessions are not in this page because they did not answer, and why. */
  away: z.array(z.object({ machine: z.string(), reason: z.string() })).default([]),
});
export type SessionsPage = z.infer<typeof SessionsPage>;

/** `GET /api/sessions/:agent/:id?before=&limit=`: a page of its conversation as a pane's Chat items. */
export const SessionChat = z.object({
  session: SessionSummary,
  /** Oldest first. */
  items: z.array(DurableItem),
  /** The cursor for older items, or null at the start. */
  before: z.string().nullable(),
});
export type SessionChat = z.infer<typeof SessionChat>;

/** `POST /api/sessions/:agent/:id/resume` body: which tmux server and session to open the window in (default: the first). */
export const SessionResumeBody = z.object({
  /** A launcher of New pane (a saved one, or the agent on PATH) whose command starts the agent; default: the agent's own name. */
  launcher: z.string().min(1).max(100).optional(),
  server: z.string().min(1).max(200).optional(),
  session: z.string().min(1).max(200).nullable().optional(),
});
export type SessionResumeBody = z.infer<typeof SessionResumeBody>;

/** The answer: the pane that runs the session (a new one, or the one that ran it already). */
export const SessionResumed = z.object({ pane: z.string(), opened: z.boolean(), argv: z.array(z.string()) });
export type SessionResumed = z.infer<typeof SessionResumed>;

/** On `/api/events`: a session appeared or changed in an agent's store. */
export const SessionChangedEvent = { type: z.literal('session.changed'), session: SessionSummary } as const;

/** `GET /api/sessions/stopped`: sessions that ran in panes when the machine (or the bridge) stopped, whose panes are gone. */
export const StoppedSession = SessionSummary.extend({ window: z.string() });
export type StoppedSession = z.infer<typeof StoppedSession>;
export const StoppedSessions = z.object({ sessions: z.array(StoppedSession) });
export type StoppedSessions = z.infer<typeof StoppedSessions>;
