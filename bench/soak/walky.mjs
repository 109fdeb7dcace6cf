// The soak's walky talky on one bridge: a stand-in agent runs `collie walky send --json <address>
// soak-w-<n> …` in its own pane (the control line `walky`), as an agent does, to another stand-in
// pane; the bridge proves the sender by the CLI's ancestry, logs the message and types its line
// (`[walky-talky <id>] from agent …`) into the target, where the stand-in logs it as submitted.
// Counted per message, from three sides: the sender's CLI answer, the bridge's log
// (GET /api/walky/messages), and the lines the target pane really received.
// Across a crew (bench/soak/crew-walky.mjs) the same messages go between two machines.
export const LINE = /^\s*\[walky-talky (wt_[A-Za-z0-9]+)\]/;
export const FINAL = new Set(['delivered', 'inbox-only', 'refused', 'unknown']);

/** What panes received: the walky lines typed (id → the panes' tmux ids) and the senders' CLI answers (n → entry). */
export function walkyLines(received) {
  const typed = new Map();
  const answers = new Map();
  for (const [tmuxId, entries] of received) {
    for (const e of entries) {
      const id = typeof e.line === 'string' ? LINE.exec(e.line)?.[1] : undefined;
      if (id) typed.set(id, [...(typed.get(id) ?? []), tmuxId]);
      if (e.walky !== undefined) answers.set(e.walky, { ...e, from: tmuxId });
    }
  }
  return { typed, answers };
}

/** The id a failed `collie walky send` names as maybe taken by the bridge, or null. */
export function saidId(a) {
  return /the message may have been taken: (wt_[a-z0-9]+)/.exec(a?.err ?? '')?.[1] ?? null;
}

/** The message `collie walky send --json` printed (its receipt as it stood), or null. */
export function cliAnswer(a) {
  try {
    return a?.out ? JSON.parse(a.out) : null;
  } catch {
    return null;
  }
}

export class Walky {
  constructor({ world, r, phones, control }) {
    Object.assign(this, { world, r, phones, control });
    this.sent = [];
  }
  /** One message from a live stand-in to another, by the address the phone shows for it. */
  async step() {
    const route = this.route();
    if (!route) return;
    const { from, to, address, control = this.control, tag = '', ...more } = route;
    const n = this.sent.length;
    this.sent.push({ n, from: from.tmuxId, to: to.tmuxId, address, at: Date.now(), ...more });
    await control(from, `walky ${address} ${tag}${n}`);
  }
  /** Who sends to whom, by which address: two live stand-ins of this bridge. */
  route() {
    const alive = [...this.world.panes.values()].filter((p) => p.alive);
    if (alive.length < 2) return null;
    const from = this.r.pick(alive);
    const to = this.r.pick(alive.filter((p) => p !== from));
    const address = this.phones[0].panes.get(`${this.world.name}:${to.tmuxId}`)?.address;
    return address ? { from, to, address } : null;
  }
  /** Until every message the bridge holds is final (a held one waits out its hold), or the deadline. */
  async settle(api, log) {
    const deadline = Date.now() + 180_000;
    for (;;) {
      const list = await api.walkyMessages().catch(() => null);
      const open = (list?.messages ?? []).filter((m) => !FINAL.has(m.state));
      if (list && open.length === 0) return (this.log = list.messages);
      if (Date.now() > deadline) return (log(`soak: ${open.length} walky messages not final`), (this.log = list?.messages ?? []));
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  async count(received, api) {
    const { typed, answers } = walkyLines(received);
    const byN = new Map();
    const byId = new Map();
    for (const m of this.log ?? []) {
      byId.set(m.id, m);
      const n = /soak-w-(\d+)/.exec(m.body ?? '')?.[1];
      if (n !== undefined) byN.set(Number(n), m);
    }
    // A pane that is gone for 30 s loses its inbox from the log (docs/walky.md); the id's
    // receipt is still kept a day (seen.json) and answered by the status route.
    // A CLI that failed names the id the bridge may have taken (`the message may have been taken:
    // <id>`): looked up too, so a message taken after the sender was told of a failure is counted.
    for (const a of answers.values()) {
      const id = cliAnswer(a)?.id ?? saidId(a);
      if (id && !byId.has(id)) {
        const st = await api.walkyStatus(id).catch(() => null);
        if (st?.message) byId.set(id, { ...st.message, fromStatus: true });
      }
    }
    const c = { asked: this.sent.length, sent: 0, once: 0, inbox: 0, refused: 0, unknown: 0, twice: 0, lost: 0, disagree: 0, noAnswer: 0, failedSaidSo: 0, failedTaken: 0, failed: [], states: {}, bad: [] };
    for (const s of this.sent) {
      const a = answers.get(s.n);
      // `collie walky send --json` prints the message (its receipt as it stands).
      const cli = cliAnswer(a);
      // A refused message keeps no body: found by the id the sender was given.
      const said = cli ? undefined : saidId(a);
      const m = byN.get(s.n) ?? (cli?.id ? byId.get(cli.id) : said ? byId.get(said) : undefined);
      if (!a && !m) {
        // The sender's pane went (or the CLI never ran) before anything reached the bridge.
        c.noAnswer++;
        continue;
      }
      if (!cli && !m) {
        // The CLI failed and said so (no receipt: the bridge was down or restarting), and the
        // bridge holds no such message: nothing was sent, and the sender knows it.
        c.failedSaidSo++;
        c.failed.push({ n: s.n, code: a.code, err: a.err });
        continue;
      }
      // The CLI failed and said the bridge may have taken it, and it had: counted as any message.
      if (!cli) c.failedTaken++, c.failed.push({ n: s.n, code: a?.code, err: a?.err, taken: m.state });
      c.sent++;
      const got = m ? typed.get(m.id) ?? [] : [];
      const state = m?.state ?? 'no record';
      c.states[state] = (c.states[state] ?? 0) + 1;
      if (got.length > 1) c.twice++, c.bad.push({ kind: 'typed twice', s, m, got });
      if (got.some((t) => t !== s.to)) c.bad.push({ kind: 'typed into another pane', s, got });
      if (state === 'delivered' && got.length === 1) c.once++;
      else if (state === 'delivered' && got.length === 0) c.lost++, c.bad.push({ kind: 'delivered, the pane never got it', s, m });
      else if (!m || !FINAL.has(state)) c.lost++, c.bad.push({ kind: 'no final receipt', s, m, cli });
      else if (state === 'inbox-only') c.inbox++;
      else if (state === 'refused') c.refused++;
      else if (state === 'unknown') c.unknown++;
      // The receiving side typed it though the receipt says it was not.
      if (got.length > 0 && m && state !== 'delivered' && state !== 'unknown') c.disagree++, c.bad.push({ kind: 'typed, receipt says otherwise', s, m });
      // What the sender was told, once final, against the machine's record.
      const told = cli;
      if (told && m && FINAL.has(told.state) && (told.id !== m.id || (told.state !== m.state && told.state !== 'unknown'))) c.disagree++, c.bad.push({ kind: 'sender told otherwise', s, told, m });
    }
    return c;
  }
}
