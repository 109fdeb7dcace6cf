// The soak's phones: WebSocket clients of /api/events that keep the model as the app does (a
// sync.reset replaces it, every event after it updates it) and resume with since/run after each
// reconnect. They count an event missed without a sync.reset (a gap in seq within one run), and
// after every reconnect compare their view with the bridge's snapshot at the same seq.
import { createHash } from 'node:crypto';
import WebSocket from 'ws';

/** What a phone shows of the model: every pane as the bridge sent it, and the sends still open. */
export function viewOf(panes, sends) {
  const ps = [...panes.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  const open = [...sends.values()].filter((s) => !s.final).map((s) => s.requestId).sort();
  return createHash('sha256').update(JSON.stringify([ps, open])).digest('hex');
}

export function startPhone(name, { url, headers }, stats, { history = false } = {}) {
  const phone = { name, run: null, seq: 0, panes: new Map(), sends: new Map(), ws: null, views: new Map(), closed: false, history: new Map() };
  /** Each pane's last changes of what a push is decided on (state, agent, card, dialog): shown when an ask pushes twice. */
  const note = (p) => {
    if (!history) return;
    const f = { state: p.state, harness: p.harness, card: p.card?.signature ?? null, dialog: p.dialog ?? null, member: p.member ? p.member.reachable : null };
    const h = phone.history.get(p.id) ?? [];
    const last = h.at(-1);
    if (last && Object.keys(f).every((k) => last[k] === f[k])) return;
    h.push({ at: Date.now(), ...f });
    if (h.length > 400) h.shift();
    phone.history.set(p.id, h);
  };
  const remember = () => {
    phone.views.set(phone.seq, viewOf(phone.panes, phone.sends));
    if (phone.views.size > 4000) phone.views.delete(phone.views.keys().next().value);
  };
  function apply(ev) {
    switch (ev.type) {
      case 'pane.added':
      case 'pane.updated':
        phone.panes.set(ev.pane.id, ev.pane);
        note(ev.pane);
        break;
      case 'pane.removed':
        phone.panes.delete(ev.id);
        break;
      case 'send.updated':
        phone.sends.set(ev.receipt.requestId, ev.receipt);
        break;
      default:
    }
  }
  function reset(snapshot) {
    phone.panes = new Map(snapshot.panes.map((p) => [p.id, p]));
    for (const p of snapshot.panes) note(p);
    phone.sends = new Map(snapshot.sends.map((s) => [s.requestId, s]));
    phone.run = snapshot.run;
    phone.seq = snapshot.seq;
    phone.views.clear();
    remember();
  }
  phone.connect = () => {
    if (phone.closed) return;
    const q = phone.run ? `?since=${phone.seq}&run=${phone.run}` : '';
    const ws = new WebSocket(`${url().replace(/^http/, 'ws')}/api/events${q}`, { headers });
    phone.ws = ws;
    phone.connects = (phone.connects ?? 0) + 1;
    ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (m.type === 'hello') {
        phone.hello = m;
        if (m.resumed && m.run !== phone.run) stats.missed++;
        return;
      }
      if (m.type === 'sync.reset') return reset(m.snapshot);
      if (typeof m.seq !== 'number' || m.type === 'pane.screen') return;
      if (m.seq <= phone.seq) return;
      if (m.seq !== phone.seq + 1) {
        stats.missed++;
        stats.missedAt.push({ phone: name, had: phone.seq, got: m.seq, type: m.type });
      }
      phone.seq = m.seq;
      apply(m);
      remember();
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      if (phone.ws === ws && !phone.closed) setTimeout(phone.connect, 100 + Math.floor(Math.random() * 400));
    });
  };
  /** Drops the connection now (a phone losing its network); it reconnects by itself. */
  phone.drop = () => phone.ws?.terminate();
  phone.close = () => {
    phone.closed = true;
    phone.ws?.terminate();
  };
  phone.connect();
  return phone;
}

/**
 * After a reconnect: fetch the snapshot, wait until the phone has reached its seq (same run),
 * and compare the two views. Resolves true (equal), false (different) or null (not comparable:
 * the bridge restarted meanwhile or the phone fell behind for 10 s).
 */
export async function compareWithSnapshot(phone, bridge) {
  const snap = await (await fetch(`${bridge.url}/api/snapshot`, { headers: bridge.headers, signal: AbortSignal.timeout(30_000) })).json();
  const deadline = Date.now() + 10_000;
  while (phone.run !== snap.run || phone.seq < snap.seq) {
    if (Date.now() > deadline) return null;
    await new Promise((r) => setTimeout(r, 20));
  }
  const mine = phone.views.get(snap.seq);
  if (mine === undefined) return null;
  return mine === viewOf(new Map(snap.panes.map((p) => [p.id, p])), new Map(snap.sends.map((s) => [s.requestId, s])));
}
