/**
 * Attack replay: `collie walky inbox --all`, run from outside any pane, printed every body as
 * sent, and `<state>/walky/log.jsonl` kept them so at rest. Now bodies are masked in the log
 * (an older log is masked when the bridge opens it), in `inbox --all`, `status --json` and
 * the phone's API, while the operator's message is still typed into the pane as written.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WalkyMessagesAnswer, WalkySendAnswer } from '@collie/protocol';
import { testBridgeOptions, testDevice } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { startBridge } from '../../src/bridge';
import { paneOf, runCli, walkyDesk } from '../walky/kit';

const SECRETS = ['sk-proj-AbCdEf0123456789AbCdEf0123456789AbCd', 'ghp_0123456789abcdefABCDEF0123456789abcd', 'AKIAIOSFODNN7EXAMPLE', 'password=hunter2-Secret'];
const BODY = `Deploy with ${SECRETS[0]} and ${SECRETS[1]}, AWS ${SECRETS[2]}, db ${SECRETS[3]}`;
const MASKED = ['sk-proj-…', 'ghp_…', 'AKIA…', 'password=…'];

const clean = (text: string, what: string) => {
  for (const s of SECRETS) expect(text, `${what} holds ${s.slice(0, 8)}`).not.toContain(s);
};

describe('attack replay: walky bodies served and kept unmasked', () => {
  it('masks bodies in log.jsonl, inbox --all, status --json and the phone; an older log is masked on open; the pane still gets the text as written', async () => {
    await using desk = await walkyDesk('collie-sec-walky-mask-');
    const { tmux, api, state, env, sender, claude } = desk;
    const device = await testDevice(state.path, 'phone');
    let bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path));
    try {
      await paneOf(bridge, sender.paneId, (p) => p.harness === 'claude');
      const T = await paneOf(bridge, claude.paneId);
      const events: string[] = [];
      const off = bridge.hub.subscribe((e) => void (e.type === 'walky.updated' && events.push(JSON.stringify(e))));

      // An agent's message and the operator's, each with the four secrets.
      const agent = await sender.collie(['walky', 'send', T.address, BODY]);
      expect(agent.code, agent.err).toBe(0);
      const agentId = agent.out.split('\n')[0]!;
      clean(agent.out + agent.err, 'the sender\'s own output');
      const r = await fetch(`${bridge.url}/api/walky/send`, { method: 'POST', headers: { ...device.headers, 'content-type': 'application/json' }, body: JSON.stringify({ to: T.address, body: BODY }) });
      const op = WalkySendAnswer.parse(await r.json()).message;
      expect(op.body).toBe(MASKED.reduce((b, m, i) => b.replace(SECRETS[i]!, m), BODY));
      // What is typed into the target pane is the text as written.
      const typed = await api.waitForRequest((q) => q.kind === 'main' && q.prompt.includes(`[walky-talky ${op.id}]`), 60_000);
      expect(typed.prompt).toContain(`[walky-talky ${op.id}] from operator (phone)\n${BODY}`);

      // At rest.
      const log = await readFile(join(state.path, 'walky', 'log.jsonl'), 'utf8');
      clean(log, 'log.jsonl');
      for (const m of MASKED) expect(log).toContain(m);
      // The CLI from outside any pane: inbox --all, with and without --json; status --json.
      for (const args of [['walky', 'inbox', '--all'], ['walky', 'inbox', '--all', '--json'], ['walky', 'status', agentId, '--json'], ['walky', 'status', op.id, '--json']]) {
        const out = await runCli(args, env);
        expect(out.code, `${args.join(' ')}: ${out.err}`).toBe(0);
        clean(out.out + out.err, args.join(' '));
      }
      const all = await runCli(['walky', 'inbox', '--all', '--json'], env);
      expect(all.out).toContain('sk-proj-…');
      // The phone's API and its events.
      const list = WalkyMessagesAnswer.parse(await (await fetch(`${bridge.url}/api/walky/messages`, { headers: device.headers })).json());
      expect(list.messages.map((m) => m.id)).toEqual(expect.arrayContaining([agentId, op.id]));
      clean(JSON.stringify(list), '/api/walky/messages');
      clean(events.join('\n'), 'walky.updated events');
      off();
    } finally {
      await bridge.stop();
    }

    // A log written by an older bridge, bodies as sent: masked when the bridge opens it, on disk too.
    const path = join(state.path, 'walky', 'log.jsonl');
    const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
    const old = lines.map((l) => {
      const j = JSON.parse(l) as { m: { body: string } };
      if (j.m.body.includes('sk-proj-…')) j.m.body = BODY;
      return JSON.stringify(j);
    });
    await writeFile(path, `${old.join('\n')}\n`, { mode: 0o600 });
    expect(await readFile(path, 'utf8')).toContain(SECRETS[0]);
    bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path));
    try {
      clean(await readFile(path, 'utf8'), 'log.jsonl after the restart');
      const out = await runCli(['walky', 'inbox', '--all'], env);
      clean(out.out, 'inbox --all after the restart');
      expect(out.out).toContain('sk-proj-…');
    } finally {
      await bridge.stop();
    }
  }, 180_000);
});
