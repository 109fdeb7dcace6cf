// The soak's real Claude Code panes: the TUI itself (the testkit's startClaude, as the live tests
// start it) in the soak's own tmux server, each offline against a scripted Messages API of its
// own on loopback. Sends from the phone API go in on a seeded schedule of its own: into idle
// panes, while a turn runs (the scripted API streams it for seconds) and while a Bash permission
// dialog waits; the dialog's card is answered through the API. Counted with the stand-ins' own
// counting (bench/soak/actions.mjs) against what each API received: every user message of the
// conversation (a send typed twice is there twice), and every tool result of an asked command
// (an answer the pane took).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../lib.mjs';
import { Actions } from './actions.mjs';

const run = promisify(execFile);
const MARKER = /soak-\d+-\d+(?![\d])/;
/** Real sends' ids start here, apart from the stand-ins' (`soak-<seed>-<n>`). */
const FIRST_ID = 100_000;
/** Sends of one pane not yet final before another is made (a turn takes a while). */
const MAX_OPEN = 3;

/** The soak's tmux server as the testkit's TmuxServer (startClaude drives it), entered with nsenter. */
function tmuxOf(world, kit) {
  const tmux = async (...args) => (await run(world.tmuxArgv(...args)[0], world.tmuxArgv(...args).slice(1), { env: world.tmuxEnv })).stdout;
  const paneArgs = (o) => [...(o.cwd ? ['-c', o.cwd] : []), ...Object.entries(o.env ?? {}).flatMap(([k, v]) => ['-e', `${k}=${v}`])];
  const cmd = (o) => (o.cmd === undefined ? [] : typeof o.cmd === 'string' ? [o.cmd] : o.cmd);
  const capture = (paneId, o = {}) => tmux('capture-pane', '-p', ...(o.escapes ? ['-e'] : []), '-t', paneId);
  return {
    name: world.name,
    tmpDir: world.dir,
    tmux,
    newSession: async (s, o = {}) => (await tmux('new-session', '-d', '-s', s, '-x', String(o.width ?? 200), '-y', String(o.height ?? 50), ...paneArgs(o), '-P', '-F', '#{pane_id}', ...cmd(o))).trim(),
    newWindow: async (t, o = {}) => (await tmux('new-window', '-d', '-t', `${t}:`, ...paneArgs(o), '-P', '-F', '#{pane_id}', ...cmd(o))).trim(),
    killPane: async (p) => void (await tmux('kill-pane', '-t', p)),
    capture,
    sendKeys: async (p, ...keys) => void (await tmux('send-keys', '-t', p, ...keys)),
    typeText: async (p, text) => void (await tmux('send-keys', '-t', p, '-l', text)),
    waitForScreen: (p, pred, timeoutMs) => kit.waitForScreen(() => capture(p), pred, { timeoutMs, what: `pane ${p}` }),
  };
}

/** One turn of a real pane's scripted API, by the plan made for the send it answers. */
function turnFor(plan) {
  return (req) => {
    if (req.toolResults.length) return { blocks: [{ type: 'text', text: `The command finished: ${req.toolResults[0].isError ? 'refused' : 'ran'}.` }] };
    const m = MARKER.exec(req.prompt)?.[0];
    const p = m ? plan.get(m) : undefined;
    if (p?.kind === 'hold') return { blocks: [{ type: 'text', text: `Working on ${m} for a while, step by step.` }], durationMs: p.ms };
    if (p?.kind === 'ask') return { blocks: [{ type: 'text', text: 'I will run a command.' }, { type: 'tool_use', name: 'Bash', input: { command: `touch real-ask-${p.n}`, description: 'Make a file for the soak' } }], stopReason: 'tool_use' };
    return { blocks: [{ type: 'text', text: `Noted ${m ?? 'that'}.` }] };
  };
}

/** Starts `count` real Claude Code panes in the world's tmux server (before the bridge starts). */
export async function startRealPanes(world, count, log) {
  const kit = await import(pathToFileURL(join(root, 'packages/testkit/dist/bench-kit.mjs')).href);
  const tmux = tmuxOf(world, kit);
  const panes = [];
  try {
    for (let i = 0; i < count; i++) {
      const plan = new Map();
      // Kept whole: the newest 200 requests (the count reads the last one's history; bench/soak/nerve.mjs says why).
      const api = await kit.startMessagesApi({ fallback: turnFor(plan), keepWhole: 200 });
      const claude = await kit.startClaude(tmux, api, { session: 'real', readyTimeoutMs: 120_000 }).catch(async (err) => {
        await api.close();
        throw err;
      });
      panes.push({ tmuxId: claude.paneId, fifo: '/dev/null', alive: true, api, claude, plan, asks: 0 });
      log(`soak: real Claude Code pane ${claude.paneId} ready in ${claude.startMs} ms`);
    }
  } catch (err) {
    for (const p of panes) await p.claude.kill(), await p.api.close();
    throw err;
  }
  return new RealPanes(world, panes);
}

export class RealPanes {
  constructor(world, panes) {
    this.world = world;
    this.panes = panes;
    this.made = { busy: 0, dialogs: 0, asks: 0 };
    this.stepping = false;
  }
  /** After the bridge and phones are up: the sends' own schedule (`r`), counted as the stand-ins' are. */
  begin({ api, r, seed, phones }) {
    const view = { name: this.world.name, panes: new Map(this.panes.map((p) => [p.tmuxId, p])), sessions: new Set(), tmux: this.world.tmux };
    Object.assign(this, { api, r, phones });
    this.actions = new Actions({ world: view, api, r, seed, phones });
    this.actions.n = FIRST_ID;
  }
  shown(p) {
    return this.phones[0].panes.get(this.actions.paneId(p.tmuxId));
  }
  /** The pane's sends not final yet, as the phone's receipts (send.updated) show them. */
  open(p) {
    const final = (s) => this.phones[0].sends.get(s.requestId)?.final ?? s.answer?.receipt?.final;
    return this.actions.sends.filter((s) => s.tmuxId === p.tmuxId && !final(s)).length;
  }
  send(p, kind, extra) {
    const s = this.actions.send(p, extra);
    if (kind) s.plan = kind;
    const m = MARKER.exec(s.text)[0];
    if (kind?.kind === 'ask') kind.n = this.made.asks++;
    if (kind) p.plan.set(m, kind);
    return s;
  }
  /** One step: a send (plain, a held turn with a send into it, a dialog with a send behind it), or a card answered. */
  async step() {
    if (!this.r.chance(0.2) || this.stepping) return;
    this.stepping = true;
    try {
      await this.stepOne();
    } finally {
      this.stepping = false;
    }
  }
  async stepOne() {
    const r = this.r;
    const p = r.pick(this.panes);
    const shown = this.shown(p);
    if (shown?.state === 'blocked' && shown.card?.answerable && r.chance(0.7)) return this.answer(p, shown);
    if (this.open(p) >= MAX_OPEN) return;
    const what = r.weighted({ send: 4, busy: 3, ask: 3 });
    if (what === 'send') return void this.send(p, null);
    if (what === 'busy') {
      // A turn the scripted API streams for seconds; a second send goes in while it runs.
      this.made.busy++;
      const first = this.send(p, { kind: 'hold', ms: r.int(2000, 8000) });
      await first.first;
      return void this.send(p, null, { into: 'busy' });
    }
    this.made.dialogs++;
    const first = this.send(p, { kind: 'ask' });
    // Half the time a send follows while the dialog is open: held behind it until it is answered.
    if (r.chance(0.5)) {
      await first.first;
      this.send(p, null, { into: 'dialog' });
    }
  }
  /** The pane's permission card, answered Yes (1) through the API with its signature. */
  answer(p, pane) {
    const a = { requestId: `soak-${this.actions.seed}-r${this.actions.answers.length}`, paneId: pane.id, tmuxId: p.tmuxId, option: 1, signature: pane.card.signature, at: Date.now() };
    // One answer per card: a second for the same card would be refused (the ask changed), not counted here.
    if (this.actions.answers.some((x) => x.signature === a.signature && (!x.answer || x.answer.receipt?.state === 'typed'))) return;
    this.actions.answers.push(a);
    a.first = this.api.answer(pane.id, a.signature, a.option, a.requestId).then((x) => (a.answer = x));
  }
  /** Every open dialog answered and every send final; then until each pane is idle again. */
  async settle(log) {
    const deadline = Date.now() + 180_000;
    for (;;) {
      await Promise.all(this.actions.answers.map((a) => a.first));
      const snap = await this.api.snapshot().catch(() => null);
      const ids = new Set(this.panes.map((p) => this.actions.paneId(p.tmuxId)));
      const mine = (snap?.panes ?? []).filter((x) => ids.has(x.id));
      const blocked = mine.filter((x) => x.state === 'blocked' && x.card?.answerable);
      for (const x of blocked) this.answer(this.panes.find((p) => p.tmuxId === x.tmuxId), x);
      const quiet = mine.length === this.panes.length && mine.every((x) => (x.state === 'idle' || x.state === 'done') && !x.dialog);
      const open = this.actions.sends.filter((s) => !s.answer?.receipt?.final).length;
      if (quiet && open === 0 && !blocked.length) break;
      if (Date.now() > deadline) {
        log(`soak: real panes not settled: ${JSON.stringify(mine.map((x) => [x.tmuxId, x.state, x.dialog ?? null, x.card?.kind ?? null]))}, ${open} sends not final, ${blocked.length} cards open`);
        break;
      }
      // Asked again with the same id: the receipt as it stands (nothing is typed again).
      for (const s of this.actions.sends.filter((x) => !x.answer?.receipt?.final)) {
        const a = await this.api.send(s.paneId, s.text, s.requestId);
        if (a.receipt) s.answer = a;
      }
      await new Promise((res) => setTimeout(res, 500));
    }
    await this.actions.settle(log);
  }
  /** What each API received, as the stand-ins log it: a `line` per user message, an `answer` per asked command's result. */
  received() {
    const out = new Map();
    for (const p of this.panes) {
      const main = p.api.requests.filter((q) => q.kind === 'main');
      const last = main.at(-1);
      const lines = (last?.userMessages ?? []).map((line) => ({ line }));
      // Each asked command's result once, when the API first got it (and whether it was refused).
      const results = new Map();
      for (const q of main) for (const t of q.toolResults) if (!results.has(t.toolUseId)) results.set(t.toolUseId, { answer: 1, at: q.at, ...(t.isError ? { isError: true } : {}) });
      out.set(p.tmuxId, [...lines, ...results.values()]);
    }
    return out;
  }
  count() {
    const c = this.actions.count(this.received());
    // What a send mixed into another message went with: its kind, its receipt, and the pane's requests around it.
    const traced = c.mixed.map((m) => {
      const s = this.actions.sends.find((x) => x.requestId === m.requestId);
      const p = this.panes.find((x) => x.tmuxId === s?.tmuxId);
      const near = (p?.api.requests ?? []).filter((q) => q.kind === 'main' && Math.abs(q.at - (s?.at ?? 0)) < 20_000).map((q) => ({ seq: q.seq, at: q.at - s.at, prompt: q.prompt.slice(0, 60), results: q.toolResults.length }));
      return { ...m, sentAt: new Date(s?.at ?? 0).toISOString(), into: s?.into ?? null, plan: s?.plan ?? null, receipt: this.phones[0].sends.get(m.requestId) ?? s?.answer?.receipt ?? null, near };
    });
    return { ...c, mixed: traced, panes: this.panes.length, made: { ...this.made }, requests: this.panes.reduce((n, p) => n + p.api.requests.filter((q) => q.kind === 'main').length, 0) };
  }
  async close() {
    for (const p of this.panes) {
      await p.claude.kill().catch(() => undefined);
      await p.api.close().catch(() => undefined);
    }
  }
}
