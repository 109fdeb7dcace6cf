// The soak's schedule of actions, one at a time, and what they add up to: every send and answer
// made, checked against the lines the stand-in panes logged as submitted to them.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

const WORDS = ['check', 'the', 'tests', 'again', 'and', 'fix', 'lint', 'rename', 'module', 'deploy', 'docs', 'señal', 'naïve', 'café', 'ünïcode', '→', '✓'];
const MARKER = /soak-\d+-\d+(?![\d])/g;
/** What someone types at the pane while a send goes in (no marker can be made of it). */
const THEIRS = 'zq';
/** A send whose Enter a dialog took as its answer says so (protocol OUTCOME.enterTookDialog). */
const ENTER_TOOK_DIALOG = 'typed, not submitted: a dialog opened as Enter went in, and the Enter answered it; the text is in the box';
/** A text send the bridge stopped while typing (protocol OUTCOME.interrupted): its Enter may or may not have gone in. */
const STOPPED_TYPING = 'typed, not submitted: the bridge stopped while typing; look at the pane';

/**
 * A control line to a pane's stand-in (every side of the soak sends them this way). The FIFO is
 * opened without blocking: with its stand-in gone (no reader) a plain open waits for good, and
 * with it a pool thread and the whole schedule.
 */
export async function controlLine(p, line) {
  let fh = null;
  try {
    fh = await open(p.fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    await fh.write(`${line}\n`);
  } catch {
    // ENXIO: no stand-in reads it any more
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

export class Actions {
  constructor({ world, api, r, seed, phones }) {
    Object.assign(this, { world, api, r, seed, phones });
    this.sends = [];
    this.answers = [];
    /** The person's own Enters (submitTheirs): a dialog that opened as one went in took it as its answer. */
    this.theirEnters = [];
    this.reuses = { same: 0, sameOk: 0, sameBad: [], other: 0, otherOk: 0, otherBad: [] };
    this.n = 0;
    this.made = { panes: 0, killed: 0, sessions: 0, sessionsKilled: 0, typedAt: 0, busy: 0, dialogs: 0 };
  }
  server() {
    return this.world.name;
  }
  paneId(tmuxId) {
    return `${this.server()}:${tmuxId}`;
  }
  alive() {
    return [...this.world.panes.values()].filter((p) => p.alive);
  }
  control(p, line) {
    return controlLine(p, line);
  }
  send(p, extra = {}) {
    const i = this.n++;
    const words = Array.from({ length: this.r.int(1, 6) }, () => this.r.pick(WORDS)).join(' ');
    const s = { requestId: `soak-${this.seed}-${i}`, tmuxId: p.tmuxId, paneId: this.paneId(p.tmuxId), text: `soak-${this.seed}-${i} ${words}`, at: Date.now(), ...extra };
    s.text = s.text.slice(0, 120);
    this.sends.push(s);
    s.first = this.api.send(s.paneId, s.text, s.requestId).then((a) => (s.answer = a));
    return s;
  }
  async step() {
    const r = this.r;
    const alive = this.alive();
    if (!alive.length) return this.addPane();
    const p = r.pick(alive);
    const what = r.weighted({ send: 40, busy: 10, dialog: 6, typedAt: 8, answer: 10, submitDraft: 4, clearBox: 2, reuseSame: 5, reuseOther: 3, addPane: 3, killPane: 3, addSession: 1, killSession: 1 });
    switch (what) {
      case 'send':
        return void this.send(p);
      case 'busy':
        this.made.busy++;
        await this.control(p, `busy ${r.int(300, 4000)}`);
        return void this.send(p, { into: 'busy' });
      case 'dialog':
        this.made.dialogs++;
        // Each dialog a question of its own (its own push: bench/soak/pushes.mjs).
        await this.control(p, `dialog ${this.made.dialogs}`);
        return void this.send(p, { into: 'dialog' });
      case 'typedAt': {
        // Someone types at the pane while the send goes in, and presses Enter a moment later.
        this.made.typedAt++;
        this.send(p, { into: 'typing' });
        await new Promise((res) => setTimeout(res, r.int(0, 60)));
        this.keys(p, ['-l', THEIRS]);
        setTimeout(() => this.submitTheirs(p), r.int(500, 1500));
        return;
      }
      case 'submitDraft':
        return this.submitTheirs(p);
      case 'clearBox':
        return this.clearOurs(p);
      case 'answer':
        return this.answer();
      case 'reuseSame':
        return this.reuseSame();
      case 'reuseOther':
        return this.reuseOther();
      case 'addPane':
        this.made.panes++;
        return void this.world.addPane(r.pick([...this.world.sessions]));
      case 'killPane':
        if (alive.length < 10) return;
        this.made.killed++;
        return this.world.killPane(p.tmuxId);
      case 'addSession': {
        this.made.sessions++;
        const name = `x${this.made.sessions}`;
        for (let i = 0; i < 3; i++) this.world.addPane(name);
        return;
      }
      case 'killSession': {
        const xs = [...this.world.sessions].filter((s) => s.startsWith('x'));
        if (!xs.length) return;
        this.made.sessionsKilled++;
        return this.world.killSession(r.pick(xs));
      }
      default:
    }
  }
  keys(p, args) {
    try {
      this.world.tmux('send-keys', '-t', p.tmuxId, ...args);
    } catch {}
  }
  /** The person presses Enter on what they typed, if the phone shows their text alone in the box. */
  submitTheirs(p) {
    const pane = this.phones[0].panes.get(this.paneId(p.tmuxId));
    if (!pane?.draft || MARKER.test(pane.draft) || !/^[zq]+$/.test(pane.draft.trim())) return (MARKER.lastIndex = 0);
    MARKER.lastIndex = 0;
    this.theirEnters.push({ tmuxId: p.tmuxId, at: Date.now() });
    this.keys(p, ['Enter']);
  }
  /**
   * A send's text left in a box (a dialog opened over it, or the bridge stopped while typing):
   * the person clears it with Ctrl-U, as they would at the terminal, never submits it.
   */
  clearOurs(p) {
    const pane = this.phones[0].panes.get(this.paneId(p.tmuxId));
    MARKER.lastIndex = 0;
    if (pane?.draft && (MARKER.test(pane.draft) || /\[walky-talky /.test(pane.draft))) this.keys(p, ['C-u']);
    MARKER.lastIndex = 0;
  }
  answer() {
    // The stand-ins' dialogs only: the real panes' cards are answered on their own schedule
    // (real-panes.mjs), and a crew member's pane (shown on the lead's phone) has a tmux id like
    // one of this world's: its whole id tells.
    const blocked = [...this.phones[0].panes.values()].filter((x) => x.state === 'blocked' && x.card?.answerable && this.world.panes.has(x.tmuxId) && x.id === this.paneId(x.tmuxId));
    if (!blocked.length) return;
    const pane = this.r.pick(blocked);
    const a = { requestId: `soak-${this.seed}-a${this.answers.length}`, paneId: pane.id, tmuxId: pane.tmuxId, option: this.r.int(1, 3), signature: pane.card.signature, at: Date.now() };
    this.answers.push(a);
    a.first = this.api.answer(pane.id, a.signature, a.option, a.requestId).then((x) => (a.answer = x));
  }
  /**
   * A send the bridge has answered with a receipt: its id is taken. One whose first request is
   * still on its way (the bridge restarting, a loaded machine) is not: an edited text with its
   * id that got there first would rightly be a new request, answered 200 (seen in a run).
   */
  recorded() {
    const done = this.sends.filter((s) => s.answer?.receipt);
    return done.length ? this.r.pick(done) : null;
  }
  reuseSame() {
    const s = this.recorded();
    if (!s) return;
    this.reuses.same++;
    void this.api.send(s.paneId, s.text, s.requestId).then((a) => {
      if (a.receipt?.requestId === s.requestId && a.status === 200) this.reuses.sameOk++;
      else this.reuses.sameBad.push({ requestId: s.requestId, status: a.status, code: a.code });
    });
  }
  reuseOther() {
    const s = this.recorded();
    if (!s) return;
    this.reuses.other++;
    void this.api.send(s.paneId, `${s.text} (edited)`, s.requestId).then((a) => {
      if (a.status === 409 && a.code === 'request_id_reused' && a.receipt?.requestId === s.requestId) this.reuses.otherOk++;
      else this.reuses.otherBad.push({ requestId: s.requestId, status: a.status, code: a.code });
    });
  }
  async addPane() {
    this.made.panes++;
    this.world.addPane(this.r.pick([...this.world.sessions]));
  }

  /** Ends every turn and dialog, then asks for each send's receipt until it is final (same request: nothing typed). */
  async settle(log) {
    // The answers still in flight first: an `idle` that closed a stand-in's dialog while an answer
    // to it was on its way would leave that answer's digit nowhere to go, a loss the soak itself made.
    await Promise.all(this.answers.map((a) => a.first));
    for (const p of this.alive()) await this.control(p, 'idle');
    await Promise.all(this.sends.map((s) => s.first));
    await Promise.all(this.answers.filter((a) => !a.answer?.receipt?.final).map(async (a) => {
      a.answer = await this.api.answer(a.paneId, a.signature, a.option, a.requestId, { until: (x) => x.receipt?.final === true || x.status >= 400 });
    }));
    const deadline = Date.now() + 240_000;
    const open = this.sends.filter((s) => !s.answer?.receipt?.final);
    log(`soak: ${open.length} of ${this.sends.length} sends not final yet`);
    for (let i = 0; i < open.length; i += 25) {
      await Promise.all(open.slice(i, i + 25).map(async (s) => {
        for (;;) {
          const a = await this.api.send(s.paneId, s.text, s.requestId);
          // Refused with no receipt (the pane gone before the send came: 404) is final as it is;
          // asking again until the deadline made the settle wait its whole 4 minutes.
          if (a.receipt || a.status >= 400) s.answer = a;
          if (a.receipt?.final || (!a.receipt && a.status >= 400) || Date.now() > deadline) return;
          // Still held by a box someone left text in: they clear it.
          const p = this.world.panes.get(s.tmuxId);
          if (p?.alive) this.submitTheirs(p), this.clearOurs(p);
          await new Promise((r) => setTimeout(r, 500));
        }
      }));
    }
    // The panes log asynchronously: a last submit may still be on its way to the file.
    await new Promise((r) => setTimeout(r, 1000));
    return true;
  }

  count(received) {
    const seen = new Map();
    const mixed = [];
    let answersLogged = 0;
    for (const [tmuxId, entries] of received) {
      for (const e of entries) {
        if (e.answer !== undefined) answersLogged += e.answer === 'cancel' ? 0 : 1;
        if (typeof e.line !== 'string') continue;
        const markers = e.line.match(MARKER) ?? [];
        for (const m of markers) seen.set(m, [...(seen.get(m) ?? []), { tmuxId, line: e.line }]);
      }
    }
    const c = { made: this.sends.length, once: 0, refused: 0, twice: 0, lost: 0, mixed: 0, notSentButTyped: 0, unsure: 0, outcomes: {}, bad: [] };
    for (const s of this.sends) {
      const got = seen.get(s.requestId) ?? [];
      const receipt = s.answer?.receipt;
      const outcome = receipt?.outcome ?? `HTTP ${s.answer?.status} ${s.answer?.code ?? ''}`.trim();
      const key = outcome.replace(/soak-\d+-\d+/g, '…');
      c.outcomes[key] = (c.outcomes[key] ?? 0) + 1;
      const wrong = got.filter((g) => g.tmuxId !== s.tmuxId || g.line.trim() !== s.text.trim());
      if (wrong.length) {
        c.mixed++;
        mixed.push({ requestId: s.requestId, text: s.text, got: wrong });
      }
      if (got.length >= 2) c.twice++, c.bad.push({ kind: 'twice', s: s.requestId, got, outcome });
      if (got.length === 1) c.once++;
      const final = receipt?.final === true || (s.answer && !receipt && s.answer.status >= 400);
      if (!final) c.lost++, c.bad.push({ kind: 'no final receipt', s: s.requestId, answer: s.answer });
      else if (receipt?.state === 'typed' && got.length === 0) {
        c.lost++;
        const near = (received.get(s.tmuxId) ?? []).filter((e) => Math.abs(e.at - receipt.updatedAt) < 3000);
        c.bad.push({ kind: 'receipt typed, pane never got it', s: s.requestId, outcome, receipt, near, into: s.into });
      }
      else if (got.length === 0) c.refused++;
      else if (receipt?.state === 'not_sent') {
        c.notSentButTyped++;
        c.bad.push({ kind: 'receipt not sent, pane got it', s: s.requestId, outcome, receipt, got, killedAt: this.world.panes.get(s.tmuxId)?.killedAt ?? null });
      }
      else if (receipt?.state === 'not_submitted') c.unsure++;
    }
    // Per pane (no one else answers its dialogs): the answers it took against the answers typed to it.
    const answers = { made: this.answers.length, typed: 0, taken: answersLogged, refused: 0, unsure: 0, twice: 0, lost: 0, open: 0, refusedFor: {}, badAt: [] };
    const typedTo = new Map();
    /** Answers the bridge stopped (kill -9) while pressing: taken or not, their receipt says so. */
    const unsureAt = new Map();
    for (const a of this.answers) {
      const rc = a.answer?.receipt;
      if (!rc?.final) answers.open++;
      else if (rc.state === 'typed') answers.typed++, typedTo.set(a.tmuxId, (typedTo.get(a.tmuxId) ?? 0) + 1);
      else if (rc.state === 'not_submitted') answers.unsure++, unsureAt.set(a.tmuxId, (unsureAt.get(a.tmuxId) ?? 0) + 1);
      else answers.refused++, (answers.refusedFor[rc.outcome] = (answers.refusedFor[rc.outcome] ?? 0) + 1);
    }
    // A send's Enter a dialog took (it opened as the Enter went in), said so in the send's receipt.
    answers.tookEnter = 0;
    for (const s of this.sends) {
      if (s.answer?.receipt?.outcome !== ENTER_TOOK_DIALOG) continue;
      answers.tookEnter++;
      typedTo.set(s.tmuxId, (typedTo.get(s.tmuxId) ?? 0) + 1);
    }
    answers.person = 0;
    answers.stoppedTyping = 0;
    for (const [tmuxId, entries] of received) {
      const taken = entries.filter((e) => e.answer !== undefined && e.answer !== 'cancel');
      const took = taken.length;
      const typed = typedTo.get(tmuxId) ?? 0;
      const unsure = unsureAt.get(tmuxId) ?? 0;
      // The person's own Enter, pressed as the phone showed their words alone in the box, taken by
      // a dialog that opened just before it landed (each Enter at most one answer, within 2 s).
      const enters = this.theirEnters.filter((e) => e.tmuxId === tmuxId).map((e) => e.at);
      let afterEnter = 0;
      for (const e of taken) {
        const i = enters.findIndex((at) => at <= e.at && e.at - at < 2_000);
        if (i >= 0) enters.splice(i, 1), afterEnter++;
      }
      const mine = () => this.answers.filter((a) => a.tmuxId === tmuxId).map((a) => ({ id: a.requestId, at: a.at, outcome: a.answer?.receipt?.outcome ?? a.answer?.status, updatedAt: a.answer?.receipt?.updatedAt }));
      const takenAt = () => entries.filter((e) => e.answer !== undefined).map((e) => ({ at: e.at, answer: e.answer, ...(e.isError ? { isError: true } : {}) }));
      // What else went into the pane around each answer taken: the person's Enters and the sends.
      const around = () =>
        taken.map((e) => ({
          at: e.at,
          theirEnters: this.theirEnters.filter((x) => x.tmuxId === tmuxId && Math.abs(x.at - e.at) < 10_000).map((x) => x.at - e.at),
          sends: this.sends.filter((x) => x.tmuxId === tmuxId && Math.abs(x.at - e.at) < 20_000).map((x) => ({ id: x.requestId, into: x.into ?? null, at: x.at - e.at, state: x.answer?.receipt?.state ?? null, outcome: x.answer?.receipt?.outcome ?? x.answer?.status ?? null, updated: x.answer?.receipt ? x.answer.receipt.updatedAt - e.at : null })),
        }));
      // Only answers beyond those typed (or unsure) are put down to the person or a stopped send.
      const beyond = Math.max(0, took - typed - unsure);
      const person = Math.min(beyond, afterEnter);
      const extra = beyond - person;
      // A text send the bridge stopped while typing ("look at the pane") in the minute before: its
      // Enter may have gone in, and a dialog that opened as it did took it.
      const stopped = this.sends.filter((x) => x.tmuxId === tmuxId && x.answer?.receipt?.outcome === STOPPED_TYPING && taken.some((e) => x.at <= e.at && e.at - x.at < 60_000)).length;
      const mayBeStopped = Math.min(extra, stopped);
      answers.person += person;
      answers.stoppedTyping += mayBeStopped;
      if (extra > mayBeStopped) answers.twice += extra - mayBeStopped, answers.badAt.push({ tmuxId, took, typed, unsure, person, answers: mine(), takenAt: takenAt(), around: around() });
      if (took < typed) answers.lost += typed - took, answers.badAt.push({ tmuxId, took, typed, unsure, answers: mine(), takenAt: takenAt() });
    }
    return { sends: c, mixed, answers, reuses: this.reuses, made: this.made };
  }
}
