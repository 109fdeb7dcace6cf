import type { SessionAgent, SessionChat, SessionResumeBody, SessionResumed, SessionsPage, SessionsQuery } from '@collie/protocol';
import { ApiError } from '../http/api-error';
import { agentOfPath } from '../procs/detect-harness';
import { offeredLaunchers } from '../workbench/new/launchers';
import type { Sessions } from './index';
import { openWindow, type WindowOpener } from './open-window';
import { resumeArgs } from './resume-command';

export interface SessionActionDeps {
  sessions: Sessions;
  configDir: string | null;
  env: NodeJS.ProcessEnv;
  /** Opens a window through the followed tmux servers (or a new one when none runs). */
  opener: WindowOpener;
}

/**
 * This machine's sessions as its routes serve them and as a crew member serves them to its
 * lead (crew/member-calls.ts): one list, read and resume, each failing with the phone API's error.
 */
export interface SessionActions {
  list(q: Omit<SessionsQuery, 'machine'>): Promise<SessionsPage>;
  read(agent: SessionAgent, id: string, before: number | null, limit: number): Promise<SessionChat>;
  resume(agent: SessionAgent, id: string, body: SessionResumeBody): Promise<SessionResumed>;
}

/**
 * Whether a launcher's command runs `agent`: a word names it as a pane's process tree does
 * (`codex.js`, `opencode.exe`, `node …/@mariozechner/pi-coding-agent/dist/cli.js`).
 */
function runsAgent(command: readonly string[], agent: string): boolean {
  return command.some((w) => agentOfPath(w) === agent);
}

export function sessionActions(d: SessionActionDeps): SessionActions {
  return {
    list: (q) => d.sessions.list(q),
    async read(agent, id, before, limit) {
      const chat = await d.sessions.read(agent, id, before, limit);
      if (!chat) throw new ApiError('not_found', `sessions: no ${agent} session '${id}'`);
      return chat;
    },
    async resume(agent, id, b) {
      const found = await d.sessions.find(agent, id);
      if (!found) throw new ApiError('not_found', `sessions: no ${agent} session '${id}'`);
      const args = resumeArgs(agent, found.summary.id, found.entry.path);
      // A pane runs it already: that pane, never a second agent writing the same session.
      if (found.summary.pane) return { pane: found.summary.pane, opened: false, argv: args };
      const folder = found.summary.folder;
      if (!folder) throw new ApiError('conflict', `sessions: the ${agent} store does not say which folder this session ran in`);
      const offered = await offeredLaunchers(d.configDir, d.env);
      // Named, else the person's own saved launcher of this agent (its environment, its flags), else the agent on PATH.
      const launcher = b.launcher !== undefined ? offered.find((l) => l.name === b.launcher) : (offered.find((l) => l.source === 'saved' && runsAgent(l.command, agent)) ?? offered.find((l) => l.source === 'agent' && l.name === agent));
      if (!launcher) throw new ApiError('bad_request', b.launcher !== undefined ? `sessions: no launcher '${b.launcher.slice(0, 100)}'` : `sessions: ${agent} is not on PATH and no saved launcher runs it`);
      const argv = [...launcher.command, ...args];
      // After a reboot, the window gets the name it had; else the folder's label.
      const window = d.sessions.remembered.stopped.find((x) => x.agent === agent && x.id === found.summary.id)?.window || found.summary.label || agent;
      const pane = await openWindow(d.opener, { server: b.server, session: b.session }, folder, argv, window);
      d.sessions.remembered.forget(agent, found.summary.id);
      return { pane, opened: true, argv };
    },
  };
}
