// The soak's Nerve: `nerve serve --config` (the built packages/nerve/dist/nerve.mjs) running the
// real Agent SDK and `claude` binary offline against the testkit's scripted Messages API, and
// followed by the soak's bridge (COLLIE_NERVE_API names its api.json). Through the bridge's
// /api/nerve/* routes with the soak's device, at random: messages to one session, each with its
// own text and client_msg_id, tried again with the same id while the bridge is down or
// restarting (and now and then once more after its answer: `duplicate`); a message may ask for
// background agents or shells (names nsa-<seed>-<i>-<k>-quick|long), which the scripted API
// starts as tool calls; running long ones are stopped now and then. Counted: each message said to
// the model once (the turns it started at the API, and the conversation's history at the end),
// every task asked for in the roster once, each stop taking effect, nothing left running after a
// last Stop all (the roster, the session's two facts, and the shells' processes in /proc).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../lib.mjs';

const UNSET = ['CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN', 'ANTHROPIC_MODEL', 'CI', 'CONTINUOUS_INTEGRATION'];
const say = (text, durationMs = 0) => ({ blocks: [{ type: 'text', text }], durationMs });
const LIVE = new Set(['starting', 'running', 'stopping']);
/** Live long tasks at most at once: past it a message asks for quick ones only. */
const MAX_LONG = 6;
/** A message is sent again with its id only this soon after it: Nerve runs a client_msg_id once within 10 minutes. */
const AGAIN_WITHIN_MS = 9 * 60_000;

/**
 * Requests the scripted API keeps whole: each holds the conversation so far, so an hour's
 * thousands of them held whole grew the soak past 2.5 GB and stalled it in GC. Older ones keep
 * what was decoded of them: the counts read only that, and the last request's history.
 */
const KEEP_WHOLE = 200;

export async function startNerve({ seed, log }) {
  const kit = await import(pathToFileURL(join(root, 'packages/testkit/dist/bench-kit.mjs')).href);
  const mark = new RegExp(`nerve-soak-${seed}-(\\d+|end)(?![\\d])`);
  const names = /nsa-\d+-\d+-\d+-(?:quick|long)/g;
  // This run's own mark on its shells' command lines: a shell an earlier run left (one stopped
  // half-way lives out its 900 s) has the same names, and must not count as this run's.
  const run = `soakrun${process.pid}t${Date.now().toString(36)}`;
  /** The tasks a turn still has to start (one tool call per model request). */
  let plan = [];
  const spawnTurn = (name) => {
    const quick = name.endsWith('quick');
    const [, , i, k] = name.split('-');
    if ((Number(i) + Number(k)) % 3 === 2) return { blocks: [{ type: 'text', text: `Starting ${name}.` }, { type: 'tool_use', name: 'Bash', input: { command: `sleep ${quick ? 2 : 900}; echo ${name} ${run}`, description: name, run_in_background: true } }] };
    return { blocks: [{ type: 'text', text: `Starting ${name}.` }, { type: 'tool_use', name: 'Agent', input: { description: name, prompt: `Do: ${name}`, run_in_background: true, subagent_type: 'general-purpose' } }] };
  };
  const api = await kit.startMessagesApi({
    fallback: (req) => {
      const m = mark.exec(req.prompt);
      if (m) plan = req.prompt.match(names) ?? [];
      if (plan.length) return spawnTurn(plan.shift());
      return say(m ? `Done: ${m[0]}.` : 'Noted.');
    },
    subagentFallback: (req) => say(`${req.prompt.match(names)?.[0] ?? 'agent'} done`, /quick/.test(req.prompt) ? 1500 : 30 * 60_000),
    keepWhole: KEEP_WHOLE,
  });
  const dir = mkdtempSync(join(tmpdir(), 'collie-soak-nerve-'));
  const state = join(dir, 'state');
  const work = join(dir, 'work');
  const claudeConfig = join(dir, 'claude-config');
  mkdirSync(work, { recursive: true });
  await kit.writeClaudeConfig(claudeConfig, { cwd: work, apiKey: kit.FAKE_API_KEY });
  const yaml = ['listen:', '  port: 0', `state_dir: ${JSON.stringify(state)}`, `cwd: ${JSON.stringify(work)}`, 'env:', `  ANTHROPIC_BASE_URL: ${JSON.stringify(api.url)}`, `  ANTHROPIC_API_KEY: ${JSON.stringify(kit.FAKE_API_KEY)}`, `  CLAUDE_CONFIG_DIR: ${JSON.stringify(claudeConfig)}`, `  HOME: ${JSON.stringify(join(claudeConfig, 'home'))}`, ...Object.entries(kit.CLAUDE_QUIET_ENV).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`), 'agent:', '  subagents:', '    progress_summaries: false'];
  writeFileSync(join(dir, 'config.yaml'), `${yaml.join('\n')}\n`);
  const env = { ...process.env };
  for (const k of UNSET) delete env[k];
  const child = spawn(process.execPath, [join(root, 'packages/nerve/dist/nerve.mjs'), 'serve', '--config', join(dir, 'config.yaml')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => ((out += d), /nerve listening on/.test(out) && resolve()));
    child.once('exit', (code) => reject(new Error(`nerve exited ${code}: ${err}`)));
  });
  log(`soak: nerve (pid ${child.pid}) on the scripted Messages API ${api.url}`);
  return {
    api,
    child,
    /** What the soak's bridge is given to follow it. */
    env: { COLLIE_NERVE_API: join(state, 'api.json') },
    /** Processes of the soak's background shells still alive (their command names the task). */
    shells: () => procsMatching(run).length,
    async close() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      // Nothing of this run's outlives it, though the run stopped half-way.
      for (const pid of procsMatching(run)) try { process.kill(pid, 'SIGKILL'); } catch {}
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
    /** The soak stopped from outside: Nerve and what it started end now, without waiting. */
    killNow() {
      // TERM: Nerve ends its runtimes' processes as it goes.
      child.kill('SIGTERM');
      for (const pid of procsMatching(run)) try { process.kill(pid, 'SIGKILL'); } catch {}
    },
  };
}

/** The pids of the processes whose command line holds `text`. */
function procsMatching(text) {
  const found = [];
  for (const pid of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text)) found.push(Number(pid));
    } catch {}
  }
  return found;
}

/** The phone side: the bridge's /api/nerve/* with the soak's device. */
export class NerveDriver {
  constructor({ world, headers, r, seed, nerve }) {
    Object.assign(this, { world, headers, r, seed, nerve });
    this.msgs = [];
    this.stops = [];
    this.reuse = { same: 0, sameOk: 0, bad: [] };
    this.shellsPeak = 0;
    this.pending = [];
  }
  /** One call through the bridge; network errors and 503 (the bridge or its link restarting) are tried again, as the app does. */
  async call(method, path, body) {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const url = this.world.bridge?.url;
      if (url) {
        try {
          const res = await fetch(`${url}/api/nerve${path}`, { method, headers: { 'content-type': 'application/json', ...this.headers }, ...(body ? { body: JSON.stringify(body) } : {}), signal: AbortSignal.timeout(30_000) });
          const json = await res.json().catch(() => ({}));
          if (res.status !== 503 || Date.now() > deadline) return { status: res.status, json };
        } catch {}
      }
      if (Date.now() > deadline) return { status: 0, json: {} };
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  async open() {
    const s = await this.call('POST', '/sessions', { title: 'Soak' });
    if (s.status !== 201) throw new Error(`nerve session through the bridge: HTTP ${s.status} ${JSON.stringify(s.json)}`);
    this.session = s.json.session_id;
  }
  async agents() {
    const a = await this.call('GET', `/sessions/${this.session}/agents`);
    return a.json.agents ?? [];
  }
  step() {
    const r = this.r;
    this.shellsPeak = Math.max(this.shellsPeak, this.nerve.shells());
    const what = r.weighted({ message: 6, again: 1, stop: 3 });
    if (what === 'again') {
      // Within the spec's 10 minutes (DEDUPE_MS): past them the same id is a new message, by the spec.
      const done = this.msgs.filter((m) => m.answer?.status === 202 && Date.now() - m.at < AGAIN_WITHIN_MS);
      if (!done.length) return;
      const m = r.pick(done);
      this.reuse.same++;
      return void this.track(this.call('POST', `/sessions/${this.session}/messages`, { text: m.text, client_msg_id: m.id }).then((a) => (a.status === 200 && a.json.outcome === 'duplicate' ? this.reuse.sameOk++ : this.reuse.bad.push({ id: m.id, a }))));
    }
    if (what === 'stop') return void this.track(this.stopOne());
    this.message();
  }
  /** One message, each with its own text and client_msg_id (also sent as the bridge goes down). */
  message() {
    const r = this.r;
    const i = this.msgs.length;
    const longs = this.msgs.flatMap((m) => m.tasks).filter((t) => t.endsWith('long') && !this.stops.some((s) => s.name === t)).length;
    const tasks = Array.from({ length: Number(r.weighted({ 0: 2, 1: 3, 2: 2 })) }, (_, k) => `nsa-${this.seed}-${i}-${k}-${longs + k < MAX_LONG && r.chance(0.5) ? 'long' : 'quick'}`);
    const m = { i, id: `nsoak-${this.seed}-${i}`, text: `nerve-soak-${this.seed}-${i} ${tasks.length ? `start: ${tasks.join(' ')}` : 'a note'}`, tasks, at: Date.now() };
    this.msgs.push(m);
    this.track(this.call('POST', `/sessions/${this.session}/messages`, { text: m.text, client_msg_id: m.id }).then((a) => (m.answer = a)));
  }
  track(p) {
    this.pending.push(p);
  }
  async stopOne() {
    const live = (await this.agents()).filter((a) => a.status === 'running' && /-long$/.test(a.name ?? ''));
    if (!live.length) return;
    const a = this.r.pick(live);
    const s = { agent: a.agent_id, name: a.name, at: Date.now() };
    this.stops.push(s);
    s.answer = await this.call('POST', `/sessions/${this.session}/agents/${a.agent_id}/stop`, {});
  }
  /** Every call answered; the turns done and the queue empty; then Stop all, and nothing live. */
  async settle(log) {
    await Promise.all(this.pending);
    const facts = async () => (await this.call('GET', `/sessions/${this.session}`)).json;
    const quiet = async (ms, f) => {
      const end = Date.now() + ms;
      for (;;) {
        const info = await facts();
        const q = (await this.call('GET', `/sessions/${this.session}/queue`)).json.queue ?? [];
        if (f(info, q)) return true;
        if (Date.now() > end) return (log(`soak: nerve not settled: ${JSON.stringify(info)} queue ${q.length}`), false);
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    await quiet(120_000, (info, q) => !info.is_running && q.length === 0);
    // The conversation's history as the model last gets it: one more message, after every other.
    const end = { id: `nsoak-${this.seed}-end`, text: `nerve-soak-${this.seed}-end settle` };
    this.endAnswer = await this.call('POST', `/sessions/${this.session}/messages`, { text: end.text, client_msg_id: end.id });
    this.last = await this.nerve.api.waitForRequest((q) => q.kind === 'main' && q.prompt.includes(end.text), 120_000).catch(() => null);
    this.stopAll = await this.call('POST', `/sessions/${this.session}/stop`, { scope: 'all', include_shells: true, requested_by: 'soak' });
    this.settled = await quiet(60_000, (info) => !info.is_running && info.background_count === 0);
    this.final = await this.agents();
    this.info = await facts();
    // A stopped shell's process goes with its stop; give the runtime its confirm time.
    const end2 = Date.now() + 15_000;
    while (this.nerve.shells() > 0 && Date.now() < end2) await new Promise((r) => setTimeout(r, 250));
    this.shellsLeft = this.nerve.shells();
  }
  count() {
    const mark = new RegExp(`nerve-soak-${this.seed}-(\\d+)(?![\\d])`);
    const turns = new Map();
    for (const q of this.nerve.api.requests) {
      if (q.kind !== 'main') continue;
      const m = mark.exec(q.prompt);
      if (m) turns.set(Number(m[1]), (turns.get(Number(m[1])) ?? 0) + 1);
    }
    const history = new Map();
    for (const u of this.last?.userMessages ?? []) {
      const m = mark.exec(u);
      if (m) history.set(Number(m[1]), (history.get(Number(m[1])) ?? 0) + 1);
    }
    const c = { made: this.msgs.length, taken: 0, retried: 0, refused: 0, once: 0, twice: 0, lost: 0, disagree: 0, noHistory: !this.last, reuse: this.reuse, bad: [] };
    const asked = [];
    for (const m of this.msgs) {
      const ok = m.answer?.status === 202 || (m.answer?.status === 200 && m.answer.json.outcome === 'duplicate');
      const t = turns.get(m.i) ?? 0;
      const h = history.get(m.i) ?? 0;
      if (!ok) {
        c.refused++;
        if (t + h > 0) c.disagree++, c.bad.push({ kind: 'refused, the model got it', m, t, h });
        continue;
      }
      c.taken++;
      // A first answer `duplicate`: its first try reached Nerve, the answer was lost with a bridge restart.
      if (m.answer.json.outcome === 'duplicate') c.retried++;
      asked.push(...m.tasks);
      if (t === 1 && h === 1) c.once++;
      else if (t > 1 || h > 1) c.twice++, c.bad.push({ kind: 'said twice', m: m.text, turns: t, history: h });
      else {
        c.lost++;
        // Shown to the model inside another turn (the CLI's mid-turn reminder) is not its own turn either.
        const inside = this.nerve.api.requests.some((q) => q.kind === 'main' && q.body && JSON.stringify(q.body).includes(m.text));
        c.bad.push({ kind: inside ? 'shown inside another turn, never its own' : `never said (nor shown in the last ${KEEP_WHOLE} requests' bodies)`, m: m.text, turns: t, history: h, answer: m.answer });
      }
    }
    // A shell is every third task (the scripted API's spawnTurn); a long one lives until stopped.
    const longShells = asked.filter((n) => n.endsWith('long') && (Number(n.split('-')[2]) + Number(n.split('-')[3])) % 3 === 2).length;
    const byName = new Map();
    for (const a of this.final ?? []) byName.set(a.name, [...(byName.get(a.name) ?? []), a]);
    const roster = { asked: asked.length, once: 0, twice: 0, missing: 0, extra: 0, statuses: {}, live: 0, stops: this.stops.length, stopped: 0, endedFirst: 0, notStopped: 0, stopAll: this.stopAll?.json?.outcome ?? `HTTP ${this.stopAll?.status}`, settled: this.settled, facts: this.info ? { is_running: this.info.is_running, background_count: this.info.background_count } : null, shellsPeak: this.shellsPeak, shellsLeft: this.shellsLeft, longShells, bad: [] };
    for (const n of asked) {
      const rs = byName.get(n) ?? [];
      if (rs.length === 1) roster.once++;
      else if (rs.length > 1) roster.twice++, roster.bad.push({ kind: 'twice', n, rs });
      else roster.missing++, roster.bad.push({ kind: 'missing', n });
    }
    for (const a of this.final ?? []) {
      roster.statuses[a.status] = (roster.statuses[a.status] ?? 0) + 1;
      if (LIVE.has(a.status)) roster.live++, roster.bad.push({ kind: 'live after settling', a });
      if (!asked.includes(a.name)) roster.extra++, roster.bad.push({ kind: 'not asked for', a });
    }
    for (const s of this.stops) {
      const rec = (this.final ?? []).find((a) => a.agent_id === s.agent);
      const named = s.answer?.json?.stopping?.includes(s.agent);
      if (named && rec?.status === 'stopped' && rec.reason === 'user') roster.stopped++;
      else if (!named && rec && rec.status !== 'stopped') roster.endedFirst++;
      else if (!named && rec?.status === 'stopped') roster.stopped++;
      else roster.notStopped++, roster.bad.push({ kind: 'stop did not take', s, rec });
    }
    return { messages: c, roster };
  }
}
