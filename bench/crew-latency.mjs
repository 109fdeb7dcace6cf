// Crew: a member's pane changes state → the event at a WebSocket client of the lead, beside the
// same change at a client of the member itself (the crew hop is the difference). Two bridge
// processes on loopback, each with its own state dir and tmux server; the crew made with the CLI.
// Run: node bench/crew-latency.mjs [changes=200]
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { quantile, root, settle, startAgents, startBridgeProcess } from './lib.mjs';

const CHANGES = Number(process.argv[2] ?? 200);
const cli = join(root, 'packages/cli/dist/collie.mjs');
const crew = (env, ...args) => execFileSync(process.execPath, [cli, 'crew', ...args], { env, encoding: 'utf8' });
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const leadAgents = startAgents({ panes: 2, sessions: 1 });
const memberAgents = startAgents({ panes: 10, sessions: 2 });
const lead = await startBridgeProcess(leadAgents);
const member = await startBridgeProcess(memberAgents);
try {
  await settle(lead, 2);
  await settle(member, 10);
  crew(lead.env, 'create', '--name', 'lead', '--listen', `127.0.0.1:${await freePort()}`);
  const { token } = JSON.parse(crew(lead.env, 'invite', '--json'));
  crew(member.env, 'join', token, '--name', 'member', '--listen', `127.0.0.1:${await freePort()}`);
  // The member's panes on the lead.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const snap = await (await fetch(`${lead.url}/api/snapshot`, { headers: lead.headers })).json();
    if (snap.panes.filter((p) => p.member?.name === 'member' && p.state === 'idle').length >= 10) break;
    if (Date.now() > deadline) throw new Error('the member panes did not reach the lead');
    await new Promise((r) => setTimeout(r, 200));
  }
  const open = (b) =>
    new Promise((resolve) => {
      const ws = new WebSocket(b.url.replace('http', 'ws') + '/api/events', { headers: b.headers });
      ws.once('open', () => resolve(ws));
    });
  const atLead = await open(lead);
  const atMember = await open(member);
  let waiting = null;
  atLead.on('message', (d) => {
    const m = JSON.parse(d.toString());
    if (waiting && m.type === 'pane.updated' && m.pane.id === `@member/${waiting.id}` && m.pane.state === waiting.state && waiting.leadAt === null) waiting.leadAt = performance.now();
  });
  atMember.on('message', (d) => {
    const m = JSON.parse(d.toString());
    if (waiting && m.type === 'pane.updated' && m.pane.id === waiting.id && m.pane.state === waiting.state && waiting.memberAt === null) waiting.memberAt = performance.now();
  });
  const total = [];
  const local = [];
  const hop = [];
  const next = new Map(memberAgents.panes.map((p) => [p.id, 'working']));
  for (let i = 0; i < CHANGES; i++) {
    const pane = memberAgents.panes[i % memberAgents.panes.length];
    const state = next.get(pane.id);
    next.set(pane.id, state === 'working' ? 'blocked' : 'working');
    const t0 = performance.now();
    waiting = { id: pane.id, state, leadAt: null, memberAt: null };
    writeFileSync(pane.fifo, `${state === 'working' ? 'working' : 'permission-edit'}\n`);
    while ((waiting.leadAt === null || waiting.memberAt === null) && performance.now() < t0 + 3000) await new Promise((r) => setTimeout(r, 1));
    if (waiting.leadAt !== null) total.push(waiting.leadAt - t0);
    if (waiting.memberAt !== null) local.push(waiting.memberAt - t0);
    if (waiting.leadAt !== null && waiting.memberAt !== null) hop.push(waiting.leadAt - waiting.memberAt);
    await new Promise((r) => setTimeout(r, 20));
  }
  atLead.close();
  atMember.close();
  const fmt = (xs) => ({ n: xs.length, p50: +quantile(xs, 0.5).toFixed(1), p99: +quantile(xs, 0.99).toFixed(1), max: +Math.max(...xs).toFixed(1) });
  console.log(JSON.stringify({ changes: CHANGES, memberPanes: 10, atLead: fmt(total), atMember: fmt(local), crewHop: fmt(hop), missed: CHANGES - total.length }, null, 2));
} finally {
  lead.stop();
  member.stop();
  leadAgents.stop();
  memberAgents.stop();
}
