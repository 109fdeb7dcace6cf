/**
 * `collie crew update --all` on the lead: asks each reachable member its version now (the
 * running lead asks over each member's stream), then tells the owner what to update where.
 * No code runs on another machine.
 */
import type { CrewAskReply } from '@collie/protocol';
import { askCrew } from '../../crew/ask-socket';
import type { LeadFile } from '../../crew/lead-core';
import type { CrewStatusFile } from '@collie/protocol';

export interface UpdateRow {
  name: string;
  /** The version it answered now, else the one last seen (or null: never known). */
  version: string | null;
  /** Answered just now over its stream. */
  asked: boolean;
  reachable: boolean;
  update: boolean;
  problem: string | null;
}

/** The rows and the words, from what the members answered. Pure. */
export function updateAdvice(lead: string, crew: LeadFile, answers: Extract<CrewAskReply, { type: 'versions' }>['members'] | null, status: CrewStatusFile | null): { text: string; rows: UpdateRow[] } {
  const rows: UpdateRow[] = crew.members.map((m) => {
    const a = answers?.find((x) => x.name === m.name);
    const last = status?.members[m.name]?.version ?? m.version;
    const version = a?.version ?? last ?? null;
    return { name: m.name, version, asked: Boolean(a?.version), reachable: a?.reachable ?? false, update: version !== lead, problem: a ? a.problem : 'the bridge on this machine is not running, so it could not ask' };
  });
  if (rows.length === 0) return { text: `Crew ${crew.crew} has no members yet. Nothing to update.`, rows };
  const line = (r: UpdateRow) => `  ${r.name}: ${r.asked ? `runs ${r.version}` : `last seen running ${r.version ?? 'an unknown version'} (${r.problem ?? 'not asked'})`}`;
  const behind = rows.filter((r) => r.update);
  const head = answers === null ? `The bridge is not running here, so no member was asked; these are the versions last seen.\n` : '';
  if (behind.length === 0) return { text: `${head}Every member runs ${lead}, as this lead does. Nothing to update.`, rows };
  return {
    text: [`${head}This lead runs ${lead}. Collie runs no code on another machine; on each of these, install ${lead} and run collie update:`, ...behind.map(line)].join('\n'),
    rows,
  };
}

/** Ask the running lead (null: no bridge runs on this state dir). */
export async function askVersions(stateDir: string): Promise<Extract<CrewAskReply, { type: 'versions' }>['members'] | null> {
  const reply = await askCrew(stateDir, { op: 'versions' });
  if (reply === null) return null;
  if (reply.type === 'error') throw new Error(reply.error.message);
  return reply.members;
}
