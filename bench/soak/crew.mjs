// The soak's second machine: a world of its own (bench/soak/world.mjs: its own private tmux
// server, state tmpfs and `collie serve`), joined to the soak's bridge as a crew with the real
// CLI (`collie crew create` on the lead, `invite`, `join` on the member), the member reaching
// the lead's crew listener through the testkit's fault proxy, which the soak cuts at random for
// a few seconds and heals. The soak's restarts of its bridge are the lead's restarts.
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../lib.mjs';
import { client } from './client.mjs';
import { startWorld } from './world.mjs';

export const MEMBER = 'annex';
const LEAD = 'soaklead';
/** A pane waiting for input: idle, or done (its turn ended, not looked at yet). */
const WAITING = new Set(['idle', 'done']);

const freePort = async () => {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
};

async function listening(port, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise((r) => {
      const c = connect(port, '127.0.0.1', () => (c.destroy(), r(true)));
      c.on('error', () => r(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`the lead's crew listener (port ${port}) did not open`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The crew of the soak's bridge (`lead`, a started world) and a member of `panes` stand-ins. */
export async function startCrew({ lead, panes, log }) {
  const kit = await import(pathToFileURL(join(root, 'packages/testkit/dist/bench-kit.mjs')).href);
  const member = startWorld();
  const leadPort = await freePort();
  const proxy = await kit.startFaultProxy(leadPort);
  const crew = { member, proxy, crewId: null, cuts: 0, cutMs: 0, cutUntil: 0, healAt: [], recover: [] };
  try {
    await member.ready();
    for (let i = 0; i < panes; i++) member.addPane(`m${i % 2}`);
    const created = JSON.parse(lead.cli('crew', 'create', '--name', LEAD, '--listen', `127.0.0.1:${leadPort}`, '--json'));
    crew.crewId = created.crew;
    // The member dials the proxy: the invite's lead address is the proxy's (the rest of the token as the lead made it).
    const { token } = JSON.parse(lead.cli('crew', 'invite', '--no-qr', '--json'));
    const payload = JSON.parse(Buffer.from(token.slice(4), 'base64url').toString('utf8'));
    const via = `cj1_${Buffer.from(JSON.stringify({ ...payload, lead: proxy.address }), 'utf8').toString('base64url')}`;
    await member.startBridge();
    // The running lead opens its crew listener once it has read the new crew.json.
    await listening(leadPort);
    await member.cliAsync('crew', 'join', via, '--name', MEMBER, '--listen', `127.0.0.1:${await freePort()}`, '--json');
    crew.api = client(member, member.token('soak-crew'));
    log(`soak: crew ${crew.crewId}: ${LEAD} leads, ${MEMBER} (${panes} stand-ins, bridge ${member.bridge.url}) reaches it through a fault proxy at ${proxy.address}`);
  } catch (err) {
    member.stop();
    await proxy.close();
    throw err;
  }
  /**
   * The lead's view of the member's panes: reachable agent panes read as Claude Code waiting
   * for input: `idle`, or `done` (a turn ended that no one has looked at yet: every stand-in a
   * walky message reached reads so from then on).
   */
  crew.memberPanes = (snap) => snap.panes.filter((p) => p.member?.name === MEMBER);
  /** Until the lead shows (nearly) every member stand-in, reachable and idle. */
  crew.ready = async (api, want = Math.ceil(panes * 0.8), ms = 180_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const snap = await api.snapshot().catch(() => null);
      const ok = snap?.panes ? crew.memberPanes(snap).filter((p) => p.member.reachable && p.harness === 'claude' && WAITING.has(p.state)).length : 0;
      if (ok >= want) return true;
      if (Date.now() > deadline) return (log(`soak: the lead shows ${ok}/${panes} of ${MEMBER}'s stand-ins reachable and waiting for input`), false);
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  /** The lead's link cut through the proxy for `ms`, then healed. */
  crew.cut = (ms) => {
    if (Date.now() < crew.cutUntil) return;
    crew.cuts++;
    crew.cutMs += ms;
    crew.cutUntil = Date.now() + ms;
    proxy.cut();
    crew.timer = setTimeout(crew.heal, ms);
  };
  crew.heal = () => {
    clearTimeout(crew.timer);
    crew.cutUntil = 0;
    proxy.heal();
    crew.healAt.push(Date.now());
  };
  /** After the last cut and restart: how long until the lead reached the member again (null: never, in `ms`). */
  crew.recovered = async (api, ms = 120_000) => {
    crew.heal();
    const t = Date.now();
    const ok = await crew.ready(api, 1, ms);
    const open = crew.outages.at(-1);
    if (ok && open && !open.end) Object.assign(open, { end: Date.now(), atSettle: true });
    return ok ? Date.now() - t : null;
  };
  /** The link as the lead's phone sees it (each step): every time the member went unreachable, and for how long. */
  crew.outages = [];
  crew.observe = (phone) => {
    const mine = [...phone.panes.values()].filter((p) => p.member?.name === MEMBER);
    if (!mine.length) return;
    const up = mine.some((p) => p.member.reachable);
    const last = crew.outages.at(-1);
    if (!up && (!last || last.end)) crew.outages.push({ start: Date.now(), end: null });
    else if (up && last && !last.end) last.end = Date.now();
  };
  /** The member's world ends now (the soak stopped from outside). */
  crew.stopNow = () => {
    clearTimeout(crew.timer);
    member.stop();
  };
  crew.stop = async () => {
    crew.stopNow();
    await proxy.close();
  };
  return crew;
}
