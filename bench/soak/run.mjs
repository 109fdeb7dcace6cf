// The soak's run: builds the world, plays the seeded schedule against it, then collects what
// every side saw (receipts, the panes' own logs, the phones, the state disk) for the table.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { compareWithSnapshot, startPhone } from './phones.mjs';
import { client } from './client.mjs';
import { rng } from './rng.mjs';
import { startWorld } from './world.mjs';
import { checkStateFiles } from './state-files.mjs';
import { Actions } from './actions.mjs';
import { startPushes } from './pushes.mjs';
import { Walky } from './walky.mjs';
import { AGENT, countDurable, DurableTaps, startDurable } from './durable.mjs';
import { startCrew } from './crew.mjs';
import { CrewWalky } from './crew-walky.mjs';
import { NerveDriver, startNerve } from './nerve.mjs';
import { startRealPanes } from './real-panes.mjs';
import { countBrowser, startBrowserPhone } from './browser-phone.mjs';
import { watchSteps } from './watch.mjs';

const PHONES = 4;
/** Real Claude Code panes beside the stand-ins (bench/soak/real-panes.mjs). */
const REAL_PANES = 2;
const SAMPLE_MS = 10_000;
/** How often the bridge's open fds are counted for their peak (a spike between samples). */
const FD_PEEK_MS = 1_000;
/** Stand-ins on the crew's second machine. */
const CREW_PANES = 6;

export async function runSoak({ minutes, seed, panes, log }) {
  const r = rng(seed);
  const t0 = Date.now();
  const phase = phases(log);
  const pushes = await startPushes();
  const nerve = await startNerve({ seed, log });
  const world = startWorld({ ...pushes.env, ...nerve.env });
  // Stopped from outside (Ctrl-C, a timeout): the world goes with it.
  const onSignal = () => {
    log(`soak: stopped from outside ${Math.round((Date.now() - t0) / 1000)} s in, during: ${phase.now}`);
    world.stop();
    crew?.stopNow();
    nerve.killNow();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const total = minutes * 60_000;
  const at = (f) => t0 + f * total;
  const stats = { missed: 0, missedAt: [], viewsEqual: 0, viewsDiffer: 0, viewsDifferAt: [], viewsUncompared: 0, reconnects: 0 };
  const watch = watchSteps(log, t0);
  const faults = { kill9: 0, term: 0, restarts: 0, bridgeExits: [], stuck: watch.stuck };
  const samples = [];
  const phones = [];
  let durable = null;
  let crew = null;
  let real = null;
  let page = null;
  try {
    await phase('tmux and the state disk', () => world.ready());
    const sessions = Math.max(4, Math.round(panes / 10));
    for (let i = 0; i < panes; i++) world.addPane(`s${i % sessions}`);
    real = await phase('the real Claude Code panes', () => startRealPanes(world, REAL_PANES, log));
    const headers = world.token('soak-phone');
    const api = client(world, headers);
    // The durable agent and its taps have a schedule of their own (the panes' stays as it was for a seed).
    const dr = rng(seed ^ 0xd0d0);
    durable = await startDurable(world.dir);
    world.cli('durable', 'add', AGENT, durable.socket);
    const taps = new DurableTaps({ api, r: dr, seed });
    let bridge = await world.startBridge();
    const conn = { url: () => world.bridge?.url ?? bridge.url, headers };
    log(`soak: seed ${seed}, ${panes} panes, ${minutes} min, bridge ${bridge.url} (pid ${bridge.pid})`);
    await phase('the panes read', () => waitSettled(api, world, log));
    await pushes.subscribe(bridge.url, headers);
    await phase('the durable agent', () => waitDurable(api, log));
    for (let i = 0; i < PHONES; i++) phones.push(startPhone(`phone-${i}`, conn, stats, { history: i === 0 }));
    const actions = new Actions({ world, api, r, seed, phones, stats, headers });
    // The real panes' sends and the Chromium page: schedules of their own.
    real.begin({ api, r: rng(seed ^ 0x7ea1), seed, phones });
    page = await phase('the Chromium phone', () => startBrowserPhone({ world, api, r: rng(seed ^ 0xc4e0), log }));
    const walky = new Walky({ world, r: rng(seed ^ 0x3a1c), phones, control: (p, line) => actions.control(p, line) });
    // The crew (a second machine, its link cut now and then) and Nerve: schedules of their own.
    const cr = rng(seed ^ 0xc4e3);
    const nr = rng(seed ^ 0x4e52);
    crew = await phase('the crew', () => startCrew({ lead: world, panes: CREW_PANES, log }));
    const crewWalky = new CrewWalky({ lead: world, crew, r: rng(seed ^ 0xc7e3), phones, leadApi: api });
    const nerveDriver = new NerveDriver({ world, headers, r: nr, seed, nerve });
    await nerveDriver.open();
    if (await phase('the member\'s stand-ins at the lead', () => crew.ready(api))) log('soak: the lead shows the member\'s stand-ins');

    // Faults: restarts in the first 40% (so the last bridge runs long enough to measure), the
    // disk full from 50% for a minute (30 s in runs under 5 minutes).
    const restarts = [];
    const nRestarts = Math.max(2, Math.round(minutes * 0.8));
    for (let i = 0; i < nRestarts; i++) restarts.push({ t: at(0.05 + (0.35 * (i + r.next())) / nRestarts), signal: i % 2 === 0 ? 'SIGKILL' : 'SIGTERM' });
    const fillMs = minutes >= 5 ? 60_000 : 30_000;
    const disk = { fillAt: at(0.5), unfillAt: at(0.5) + fillMs, before: null, filled: false, done: false, freeWhileFull: null };
    let restingSince = null;
    let rest = { ticks: 0, ms: 0 };
    let lastSample = 0;
    let lastPeek = 0;
    /** This rest's full-GC measure: asked of which bridge, when, and whether it came. */
    let gcAsked = null;
    const gcSamples = [];
    /** Each rest's fewest open fds (read every 250 ms): what the bridge keeps, without reads in flight. */
    const restFds = [];
    let restFd = null;
    let fdPeak = null;
    const end = t0 + total;

    await phase('the schedule', async () => {
      while (Date.now() < end) {
        const now = Date.now();
        // Bursts of 40 s, then 20 s at rest (nothing asked of the bridge: its CPU at rest is read then).
        const inRest = (now - t0) % 60_000 >= 40_000;
        crew.observe(phones[0]);
        // A restart that came due past 45% (restarts of 200 panes take a while) is dropped: the
        // last bridge must live long enough for its growth to be measured.
        while (restarts.length && now >= restarts[0].t && now > at(0.45)) restarts.shift();
        // A bridge that exited on its own is being started again (world.mjs): a restart due waits for it.
        if (restarts.length && now >= restarts[0].t && !inRest && world.bridge) {
          const { signal } = restarts.shift();
          // A Nerve message and a crew walky message on their way as the lead goes down.
          nerveDriver.message();
          await watch.step('a crew walky message before a restart', () => crewWalky.step());
          await new Promise((res) => setTimeout(res, nr.int(0, 40)));
          const pid = world.bridge.pid;
          const exit = await watch.step(`the bridge's ${signal}`, () => world.stopBridge(signal), { deadline: false });
          faults[signal === 'SIGKILL' ? 'kill9' : 'term']++;
          faults.bridgeExits.push({ signal, pid, exit });
          bridge = await watch.step('the bridge started again', () => world.startBridge(), { deadline: false });
          faults.restarts++;
          page.afterRestart();
          log(`soak: ${signal} bridge ${pid} (${JSON.stringify(exit)}); started again (pid ${bridge.pid}) at ${Math.round((Date.now() - t0) / 1000)} s`);
        }
        if (!disk.filled && now >= disk.fillAt) {
          disk.before = world.stateFiles();
          world.fillState();
          disk.filled = true;
          disk.freeWhileFull = world.stateFree();
          log(`soak: state disk filled (${disk.freeWhileFull} bytes free)`);
        }
        if (disk.filled && !disk.done && now >= disk.unfillAt) {
          world.unfillState();
          disk.done = true;
          log('soak: state disk freed');
        }
        if (now - lastSample >= SAMPLE_MS) world.watchServer();
        if (now - lastSample >= SAMPLE_MS && world.bridge) {
          lastSample = now;
          const s = sample(world.bridge.pid);
          if (s) samples.push({ t: now - t0, pid: world.bridge.pid, ...s, panes: world.panes.size });
        }
        if (now - lastPeek >= FD_PEEK_MS && world.bridge) {
          lastPeek = now;
          const n = fdCount(world.bridge.pid);
          if (n !== null && (fdPeak === null || n > fdPeak.fds)) fdPeak = { t: now - t0, pid: world.bridge.pid, fds: n, kinds: fdKinds(world.bridge.pid), sinceStart: now - world.bridge.startedAt };
        }
        if (inRest && !world.bridge) {
          await new Promise((res) => setTimeout(res, 250));
          continue;
        }
        if (inRest) {
          const pid = world.bridge.pid;
          if (restingSince === null) restingSince = { t: now, ticks: sample(pid)?.ticks ?? 0, pid };
          // Once a rest, 5 s into it: the bridge's memory just after a full GC (bench/soak/bridge-main.mjs).
          if (!gcAsked && now - restingSince.t >= 5_000) {
            gcAsked = { t: now, pid };
            try {
              process.kill(pid, 'SIGUSR2');
            } catch {}
          }
          const m = gcAsked && !gcAsked.got ? world.gcMemory() : null;
          if (m && m.pid === gcAsked.pid && m.at >= gcAsked.t) {
            gcAsked.got = true;
            gcSamples.push({ t: m.at - t0, pid: m.pid, rss: m.rss / 1024, heap: m.heapUsed / 1024, heapTotal: (m.heapTotal ?? m.heapUsed) / 1024, external: (m.external ?? 0) / 1024, split: m.split ?? null });
          }
          // The fewest fds this rest: a burst's pipes and requests are gone, and a /proc read in
          // flight is gone a moment later; what stays through the whole rest is what the bridge keeps.
          if (restFd?.pid !== pid) restFd = { pid, t: now - t0, clients: tmuxClients(pid), fds: Infinity, kinds: null };
          const n = fdCount(pid);
          if (n !== null && n < restFd.fds) Object.assign(restFd, { fds: n, t: now - t0, kinds: fdKinds(pid) });
          await new Promise((res) => setTimeout(res, 250));
          continue;
        }
        gcAsked = null;
        if (restFd && restFd.kinds) restFds.push(restFd);
        restFd = null;
        if (restingSince !== null) {
          const s = world.bridge && sample(world.bridge.pid);
          if (s && restingSince.pid === world.bridge.pid) {
            rest = { ticks: rest.ticks + s.ticks - restingSince.ticks, ms: rest.ms + now - restingSince.t };
          }
          restingSince = null;
        }
        // A step of the soak's own that fails (a tmux call refused) is said and counted, not the end of the hour.
        await watch.step('a send, answer or pane change', () => actions.step()).catch((err) => {
          faults.stepErrors = (faults.stepErrors ?? 0) + 1;
          log(`soak: a step failed: ${String(err?.message ?? err).split('\n')[0]}`);
        });
        if (dr.chance(0.12)) durable.step(dr);
        if (dr.chance(0.15)) await watch.step('a durable tap', () => taps.step());
        if (dr.chance(0.1)) await watch.step('a walky message', () => walky.step());
        if (cr.chance(0.08)) await watch.step('a crew walky message', () => crewWalky.step());
        if (cr.chance(0.01)) crew.cut(cr.int(2000, 8000));
        if (nr.chance(0.08)) nerveDriver.step();
        void real.step();
        page.step();
        await new Promise((res) => setTimeout(res, r.int(40, 250)));
        // After a reconnect, check the view against the snapshot now and then.
        if (r.chance(0.05)) {
          const phone = r.pick(phones);
          phone.drop();
          stats.reconnects++;
          void (async () => {
            const eq = await compareWithSnapshot(phone, { url: conn.url(), headers }).catch(() => null);
            if (eq === true) stats.viewsEqual++;
            else if (eq === false) {
              stats.viewsDiffer++;
              stats.viewsDifferAt.push({ phone: phone.name, seq: phone.seq });
            } else stats.viewsUncompared++;
          })();
        }
      }
    });
    log(`soak: schedule over at ${Math.round((Date.now() - t0) / 1000)} s; settling every send`);
    if (disk.filled && !disk.done) world.unfillState();
    const crewBack = await phase('the crew link back', () => crew.recovered(api));
    const realSettled = phase('the real panes settled', () => real.settle(log));
    const settled = await phase('the sends settled', () => actions.settle(log));
    await realSettled;
    await phase('the Chromium page settled', () => page.settle());
    await phase('the durable taps settled', () => taps.settle());
    await phase('walky settled', () => walky.settle(api, log));
    // The stand-ins log asynchronously: a last walky line may still be on its way to the file.
    await new Promise((res) => setTimeout(res, 1000));
    const walkyCounts = await walky.count(world.received(), api);
    await phase('crew walky settled', () => crewWalky.settle(api, log));
    await phase('Nerve settled', () => nerveDriver.settle(log));
    const crewCounts = { walky: await crewWalky.count(), cuts: crew.cuts, cutMs: crew.cutMs, backMs: crewBack, outages: crew.outages };
    const nerveCounts = nerveDriver.count();
    // No bridge when the last one exited on its own and would not start again (said in the log).
    const last = world.bridge?.pid ?? null;
    if (world.bridge) await phase('the last bridge stopped', () => world.stopBridge('SIGTERM'));
    faults.unasked = world.unasked.map(({ pid, code, signal, at, stderr }) => ({ pid, code, signal, at: at - t0, stderr }));
    world.watchServer();
    faults.serverExits = world.serverExits.map(({ pid, at }) => ({ pid, at: at - t0 }));
    // A bridge killed with -9 leaves its tmux control clients; the next one ends them as it starts.
    // The last bridge's own end as it exits: given 5 s.
    for (const until = Date.now() + 5_000; (faults.controlLeft = world.controlClientsLeft()) > 0 && Date.now() < until; ) await new Promise((res) => setTimeout(res, 100));
    // A bridge killed between a send's paste and its Enter left that pane's input off; the next one switches it on.
    faults.inputOff = world.inputsOff();
    const stateAfter = world.stateFiles();
    const state = checkStateFiles(disk.before ?? new Map(), stateAfter);
    const counts = actions.count(world.received(), settled);
    counts.pushes = pushes.count(actions.made.dialogs, durable.asks.size, { t0, lives: world.lives, history: (id) => phones[0]?.history.get(id) });
    for (const t of counts.pushes.twiceAt) log(`soak: an ask pushed twice: ${JSON.stringify(t)}`);
    for (const b of counts.answers.badAt) log(`soak: a pane's answers do not add up: ${JSON.stringify(b)}`);
    counts.durable = countDurable(durable, taps);
    counts.walky = walkyCounts;
    counts.crew = crewCounts;
    for (const bad of crewCounts.walky.bad) log(`soak: crew walky: ${JSON.stringify(bad)}`);
    counts.nerve = nerveCounts;
    counts.real = real.count();
    counts.browser = countBrowser(page.stats);
    for (const bad of [...counts.real.sends.bad, ...counts.real.mixed, ...counts.real.answers.badAt, ...counts.browser.differAt, ...counts.browser.consoleErrors, ...counts.browser.pageErrors]) log(`soak: real panes, Chromium: ${JSON.stringify(bad)}`);
    return {
      seed,
      minutes,
      panes,
      elapsedMs: Date.now() - t0,
      counts,
      phones: { ...stats, connects: phones.reduce((s, p) => s + (p.connects ?? 0), 0) },
      faults,
      disk: { ...disk, before: disk.before?.size ?? null },
      state,
      samples,
      gcSamples,
      restFds,
      fdPeak,
      lastPid: last,
      rest: { cpuSecondsPerHour: rest.ms ? (rest.ticks / 100) * (3_600_000 / rest.ms) : null, restMs: rest.ms },
      clockTicks: 100,
    };
  } finally {
    for (const p of phones) p.close();
    await phase('the Chromium page closed', () => page?.close());
    await phase('the real panes closed', () => real?.close());
    world.stop();
    await phase('the push service closed', () => pushes.close());
    await phase('the durable agent closed', () => durable?.close());
    await phase('the crew stopped', () => crew?.stop());
    await phase('Nerve closed', () => nerve.close());
  }
}

/** A phase slower than this is said, with its time. */
const SLOW_PHASE_MS = 5_000;

/** Runs the soak's phases by name: one slower than SLOW_PHASE_MS is said, and `now` names those under way (said when stopped from outside). */
function phases(log) {
  const running = new Set();
  let last = 'starting';
  const phase = async (name, fn) => {
    running.add(name);
    const t = Date.now();
    try {
      return await fn();
    } finally {
      running.delete(name);
      last = name;
      const ms = Date.now() - t;
      if (ms > SLOW_PHASE_MS) log(`soak: ${name} took ${(ms / 1000).toFixed(1)} s`);
    }
  };
  Object.defineProperty(phase, 'now', { get: () => (running.size ? [...running].join(', ') : `after ${last}`) });
  return phase;
}

/** RSS (kB), open fds and CPU ticks of a process, or null once it is gone. */
function sample(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
    return { rss, fds: readdirSync(`/proc/${pid}/fd`).length, ticks: Number(f[11]) + Number(f[12]), clients: tmuxClients(pid) };
  } catch {
    return null;
  }
}

/**
 * The bridge's `tmux -C` control clients (one per tmux session it follows): each holds three of
 * its fds (stdin, stdout, stderr: socket pairs), so fds follow the sessions the schedule makes
 * and kills, and their growth is judged without them.
 */
function tmuxClients(pid) {
  let n = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      // A tmux client names itself `tmux: client` (prctl), the server `tmux: server`.
      if (/^tmux(: client)?$/.test(stat.slice(stat.indexOf('(') + 1, close)) && Number(stat.slice(close + 2).split(' ')[1]) === pid) n++;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}

function fdCount(pid) {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

/** The process's open fds by kind: socket, pipe, anon_inode:[eventfd], /dev/…, /proc/…, files. */
export function fdKinds(pid) {
  const kinds = {};
  let names = [];
  try {
    names = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return kinds;
  }
  for (const n of names) {
    let link;
    try {
      link = readlinkSync(`/proc/${pid}/fd/${n}`);
    } catch {
      continue;
    }
    const kind = /^(socket|pipe):/.exec(link)?.[1] ?? (/^anon_inode:/.test(link) ? link : /^\/(dev|proc)\//.exec(link)?.[0] ?? 'file');
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

/** Until the bridge has the soak's durable agent ready. */
async function waitDurable(api, log) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const snap = await api.snapshot();
    if (snap.durable?.agents.some((a) => a.name === AGENT && a.state === 'ready')) return log('soak: durable agent ready');
    if (Date.now() > deadline) throw new Error(`the durable agent is not ready: ${JSON.stringify(snap.durable?.agents)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Until the bridge reads (nearly) every stand-in as an idle Claude Code pane. */
async function waitSettled(api, world, log) {
  const want = Math.floor(world.panes.size * 0.95);
  const deadline = Date.now() + 180_000;
  for (;;) {
    const snap = await api.snapshot();
    const ready = snap.panes.filter((p) => p.harness === 'claude' && p.state === 'idle').length;
    if (ready >= want) return log(`soak: ${ready}/${world.panes.size} panes read as idle Claude Code`);
    if (Date.now() > deadline) throw new Error(`only ${ready}/${world.panes.size} stand-in panes read as idle Claude Code: ${JSON.stringify(snap.panes.slice(0, 2))}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

