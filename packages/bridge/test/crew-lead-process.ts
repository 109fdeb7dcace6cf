import type { ChildProcess } from 'node:child_process';
import type { WalkyMessage } from '@collie/protocol';
import { crewCli, freePort, startClaude, startMessagesApi, startTmux, Started, tempDir, type ClaudePane, type MessagesApi, type TmuxServer } from '@collie/testkit';
import { bridgeProcess } from './bridge-process';
import { CLI, runCli, walkyEnv } from './walky/kit';

/** A crew's lead as its own process (the installed CLI's `collie serve`), so a test can kill -9 it. */
export const serveLead = async (env: NodeJS.ProcessEnv): Promise<ChildProcess> => (await bridgeProcess(env, CLI)).child;

/** Kills a process with -9 and resolves once it has exited. */
export const killed = (c: ChildProcess): Promise<unknown> => new Promise((r) => (c.kill('SIGKILL'), c.once('exit', r)));

/** A walky message as `collie walky status --json` shows it on the machine of `state`, or null. */
export const walkyStatus = async (state: string, id: string): Promise<WalkyMessage | null> => JSON.parse((await runCli(['walky', 'status', id, '--json'], walkyEnv(state))).out || 'null') as WalkyMessage | null;

/**
 * Two machines for a lead-restart test: the lead's tmux with a real Claude Code pane on a
 * scripted API, member beta's tmux with a plain pane, a crew `bluefin` created at `leadPort`,
 * and the lead serving in its own process (`lead()`, stopped and started again by
 * `restartLead`). Beta's bridge and the crew's joining are the test's own (where its proxy sits).
 */
export interface CrewLeadDesk extends AsyncDisposable {
  readonly sL: string;
  readonly sB: string;
  readonly tmuxB: TmuxServer;
  readonly apiL: MessagesApi;
  readonly claudeL: ClaudePane;
  readonly leadPort: number;
  lead(): ChildProcess;
  /** Stops the lead with `stop`, runs `meanwhile` while it is down, and serves it again. */
  restartLead(stop: (c: ChildProcess) => Promise<unknown>, meanwhile?: () => Promise<void>): Promise<void>;
  /** The lead's Claude Code pane as `collie walky who` lists it on the lead, once listed (60 s at most). */
  leadAgent(): Promise<{ address: string; machine: string }>;
}

export async function crewLeadDesk(prefix: string): Promise<CrewLeadDesk> {
  const started = new Started();
  const keep = <T extends AsyncDisposable>(part: T): T => started.use(part);
  return started.guard(async () => {
    const tmuxL = keep(await startTmux());
    const tmuxB = keep(await startTmux());
    const apiL = keep(await startMessagesApi());
    const dir = keep(await tempDir(prefix));
    const [sL, sB] = ['lead', 'beta'].map((n) => `${dir.path}/${n}`) as [string, string];
    await tmuxB.newSession('b', { cmd: 'cat' });
    const claudeL = keep(await startClaude(tmuxL, apiL, { session: 'lead-work' }));
    const leadPort = await freePort();
    const created = await crewCli(sL, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${leadPort}`]);
    if (created.code !== 0) throw new Error(`collie crew create: ${JSON.stringify(created)}`);
    const leadEnv = { ...process.env, TMUX_TMPDIR: tmuxL.tmpDir, COLLIE_NO_SYSTEMD: '1', ...walkyEnv(sL) };
    let lead = await serveLead(leadEnv);
    keep({ [Symbol.asyncDispose]: async () => void (await killed(lead)) });
    type Listed = { address: string; machine: string; harness?: string };
    const who = async () => (JSON.parse((await runCli(['walky', 'who', '--json'], walkyEnv(sL))).out || '{"panes":[]}') as { panes: Listed[] }).panes;
    return {
      sL, sB, tmuxB, apiL, claudeL, leadPort,
      lead: () => lead,
      restartLead: async (stopLead, meanwhile) => {
        await stopLead(lead);
        await meanwhile?.();
        lead = await serveLead(leadEnv);
      },
      leadAgent: async () => {
        const deadline = Date.now() + 60_000;
        for (;;) {
          const mine = (await who()).find((p) => p.machine === 'bluefin' && p.harness === 'claude');
          if (mine) return mine;
          if (Date.now() > deadline) throw new Error("the lead's Claude Code pane not listed by collie walky who in 60 s");
          await new Promise((r) => setTimeout(r, 250));
        }
      },
      [Symbol.asyncDispose]: () => started[Symbol.asyncDispose](),
    };
  });
}
