// The soak's one table: every line a figure and, where the figure has a bound, pass or FAIL.

/** Least-squares slope of ys over xs (per unit of x). */
function slope(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den ? num / den : 0;
}

/**
 * The fds the bridge holds for each tmux control client: its output socket, which is its input
 * too (`oneSocket`, packages/bridge/src/mux/tmux/control-client.ts), and its stderr. Sessions come
 * and go with the schedule, and their clients with them, so fd growth is judged without them.
 */
export const FDS_PER_CLIENT = 2;

/**
 * The points of bridge `pid` after its first ten minutes (a third of its life in shorter runs;
 * its life as its 10-second samples span it), with their times in hours; null with fewer than 3.
 */
function lastBridgeWindow(points, pid, samples) {
  const life = samples.filter((s) => s.pid === pid);
  const w = life.length ? (points ?? []).filter((s) => s.pid === pid) : [];
  if (life.length < 3 || w.length < 3) return null;
  const span = life.at(-1).t - life[0].t;
  const skip = span >= 20 * 60_000 ? 10 * 60_000 : span / 3;
  const kept = w.filter((s) => s.t - life[0].t >= skip);
  if (kept.length < 3) return null;
  return { w: kept, hours: kept.map((s) => s.t / 3_600_000), windowMin: (kept.at(-1).t - kept[0].t) / 60_000 };
}

/** RSS and fd growth per hour of the last bridge, from its 10-second samples. */
export function growth(samples, pid) {
  const win = lastBridgeWindow(samples, pid, samples);
  if (!win) return null;
  const { w, hours } = win;
  return {
    windowMin: win.windowMin,
    rssMbPerHour: slope(hours, w.map((s) => s.rss / 1024)),
    fdsPerHour: slope(hours, w.map((s) => s.fds - FDS_PER_CLIENT * (s.clients ?? 0))),
    clientsFirst: w[0].clients ?? null,
    clientsLast: w.at(-1).clients ?? null,
    rssFirstMb: w[0].rss / 1024,
    rssLastMb: w.at(-1).rss / 1024,
  };
}

/**
 * RSS and live heap just after a full GC, once a rest, of the last bridge in the same window:
 * what a leak grows, without the noise of when V8 last collected.
 */
export function growthAfterGc(gcSamples, pid, samples) {
  return inWindow(gcSamples, pid, samples, (w, hours) => ({
    rssMbPerHour: slope(hours, w.map((s) => s.rss / 1024)),
    heldMbPerHour: slope(hours, w.map((s) => held(s) / 1024)),
    heldFirstMb: held(w[0]) / 1024,
    heldLastMb: held(w.at(-1)) / 1024,
    freeHeapFirstMb: (w[0].heapTotal - w[0].heap) / 1024,
    freeHeapLastMb: (w.at(-1).heapTotal - w.at(-1).heap) / 1024,
    heapMbPerHour: slope(hours, w.map((s) => s.heap / 1024)),
    externalMbPerHour: slope(hours, w.map((s) => (s.external ?? 0) / 1024)),
    rssFirstMb: w[0].rss / 1024,
    rssLastMb: w.at(-1).rss / 1024,
    heapFirstMb: w[0].heap / 1024,
    heapLastMb: w.at(-1).heap / 1024,
    split: w.every((s) => s.split) ? splitGrowth(w, hours) : null,
  }));
}

/** Where the resident memory lies (bench/soak/bridge-main.mjs): each part first → last, and its growth per hour. */
function splitGrowth(w, hours) {
  const parts = { mainArena: "malloc's main arena", arenas: "malloc's other arenas", otherAnon: "V8's pages and other anonymous memory", files: 'mapped files' };
  return Object.entries(parts).map(([k, name]) => ({
    name: k === 'arenas' ? `${name} (${w[0].split.arenaCount}→${w.at(-1).split.arenaCount})` : name,
    firstMb: w[0].split[k] / 1024,
    lastMb: w.at(-1).split[k] / 1024,
    mbPerHour: slope(hours, w.map((s) => s.split[k] / 1024)),
  }));
}

/**
 * What the bridge holds just after a full GC: its RSS less the heap V8 keeps committed but free.
 * That free part is V8's own reserve, bounded by its settings: the young generation grows to
 * 2 × 16 MB under a burst of allocation and a full GC leaves it so (measured on Node 20: 32 MB
 * of new space committed with 59 kB used), so a bridge's RSS climbs by it in its first busy
 * minutes with nothing leaked. A leak grows the live heap, the external memory or the native
 * memory, each of which stays in this figure.
 */
const held = (s) => s.rss - (s.heapTotal ?? s.heap) + s.heap;

/** `figures` of the points in the last bridge's window, with their count and the window's length; null without one. */
function inWindow(points, pid, samples, figures) {
  const win = lastBridgeWindow(points, pid, samples);
  return win && { n: win.w.length, windowMin: win.windowMin, ...figures(win.w, win.hours) };
}

const kinds = (k) => (k ? Object.entries(k).sort((x, y) => y[1] - x[1]).map(([n, c]) => `${n} ${c}`).join(', ') : '?');

/** The fewest open fds of each rest of the last bridge in the same window, less those of its tmux control clients. */
export function growthAtRest(restFds, pid, samples) {
  return inWindow(restFds, pid, samples, (w, hours) => ({ fdsPerHour: slope(hours, w.map((s) => s.fds - FDS_PER_CLIENT * s.clients)), first: w[0], last: w.at(-1) }));
}

/** Bounds on growth: within these the bridge counts as flat. */
const RSS_MB_PER_HOUR = 30;
const FDS_PER_HOUR = 10;
/** A window shorter than this says nothing of growth per hour. */
const JUDGE_MIN = 5;

export function table(res) {
  const rows = [];
  let failed = false;
  const row = (label, value, ok) => {
    if (ok === false) failed = true;
    rows.push([label, String(value), ok === undefined ? '' : ok ? 'pass' : 'FAIL']);
  };
  const { sends, answers, reuses, made } = res.counts;
  row('sends made', sends.made);
  row('  typed exactly once (the pane logged it once)', sends.once);
  row('  refused with a reason', sends.refused);
  row('  uncertain, said so (not submitted: bridge stopped while typing)', sends.unsure);
  row('  typed twice', sends.twice, sends.twice === 0);
  row('  lost (no final receipt, or typed receipt the pane never got)', sends.lost, sends.lost === 0);
  row('  receipt says not sent, the pane got it', sends.notSentButTyped, sends.notSentButTyped === 0);
  row('  submitted mixed with someone else\'s keys', sends.mixed, sends.mixed === 0);
  row('  into busy panes / open dialogs / while someone typed', `${made.busy} / ${made.dialogs} / ${made.typedAt}`);
  row('request ids reused: same request answered with its receipt', `${reuses.sameOk}/${reuses.same}`, reuses.sameOk === reuses.same);
  row('request ids reused: other request refused 409 request_id_reused', `${reuses.otherOk}/${reuses.other}`, reuses.otherOk === reuses.other);
  row('card answers made / typed / taken by the panes / refused with a reason', `${answers.made} / ${answers.typed} / ${answers.taken} / ${answers.refused}`);
  row('  uncertain, said so (the bridge stopped while pressing) / refused for', `${answers.unsure} / ${JSON.stringify(answers.refusedFor)}`);
  row('  answers taken twice (or with no receipt)', answers.twice, answers.twice === 0);
  row('  a send\'s Enter a dialog took as it opened, said so in its receipt', answers.tookEnter ?? 0);
  row('  taken from the person\'s own Enter (a dialog opened as it went in) / from a send the bridge stopped while typing', `${answers.person ?? 0} / ${answers.stoppedTyping ?? 0}`);
  row('  answers lost (typed, never taken) or with no final receipt', answers.lost + answers.open, answers.lost + answers.open === 0);
  row('panes made / killed, sessions made / killed', `${made.panes} / ${made.killed}, ${made.sessions} / ${made.sessionsKilled}`);
  row('bridge kill -9 / SIGTERM / started again', `${res.faults.kill9} / ${res.faults.term} / ${res.faults.restarts}`);
  row('  tmux control clients of bridges gone, running at the end', res.faults.controlLeft ?? '?', res.faults.controlLeft === 0);
  row('  the soak\'s own steps that failed (said in its log)', res.faults.stepErrors ?? 0, (res.faults.stepErrors ?? 0) === 0);
  const stuck = res.faults.stuck ?? [];
  row('  the soak\'s own steps given up, pending 180 s (said in its log)', stuck.length ? `${stuck.length}: ${stuck.map((x) => `${x.name} at ${Math.round(x.at / 1000)} s`).join(', ')}` : 0, stuck.length === 0);
  const off = res.faults.inputOff ?? null;
  row('  panes left with their input off at the end', off === null ? '?' : off.length ? `${off.length}: ${off.join(' ')}` : 0, off?.length === 0);
  const crashes = res.faults.unasked ?? [];
  row('  bridge exits no one asked for (started again)', crashes.length ? `${crashes.length}: ${crashes.map((c) => `at ${Math.round(c.at / 1000)} s (${c.code ?? c.signal})`).join(', ')}` : 0, crashes.length === 0);
  const ends = res.faults.serverExits ?? [];
  row('  tmux server ends no one asked for (its panes with it)', ends.length ? `${ends.length}: ${ends.map((e) => `server ${e.pid} seen gone at ${Math.round(e.at / 1000)} s`).join(', ')}` : 0, ends.length === 0);
  const ph = res.phones;
  row('phone connections (drops and bridge restarts)', `${ph.connects} (${ph.reconnects} drops)`);
  row('  events missed without sync.reset', ph.missed, ph.missed === 0);
  row('  view equal to the snapshot after a reconnect', `${ph.viewsEqual} equal, ${ph.viewsDiffer} differ, ${ph.viewsUncompared} not comparable`, ph.viewsDiffer === 0 && ph.viewsEqual > 0);
  const per = perMinute(res.samples);
  row('bridge RSS MB per minute', per.map((s) => s.rss).join(' '));
  row('bridge open fds per minute', per.map((s) => s.fds).join(' '));
  const pk = res.fdPeak;
  if (pk) row('  peak open fds (counted each second), by kind', `${pk.fds} at ${Math.round(pk.t / 1000)} s, ${Math.round(pk.sinceStart / 1000)} s after its start: ${Object.entries(pk.kinds).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  const g = growth(res.samples, res.lastPid);
  if (!g || g.windowMin < JUDGE_MIN) row('growth per hour (last bridge)', g ? `window ${g.windowMin.toFixed(1)} min: too short to judge (RSS ${g.rssMbPerHour.toFixed(1)} MB/h, fds ${g.fdsPerHour.toFixed(1)}/h)` : 'no samples');
  else {
    const a = growthAfterGc(res.gcSamples, res.lastPid, res.samples);
    // RSS sampled at any moment swings with bursts and with when V8 last collected; just after a
    // full GC at rest it is what the bridge holds. That is judged where measured.
    row(`  RSS growth per hour, sampled every 10 s (last bridge, ${g.windowMin.toFixed(0)} min window, ${g.rssFirstMb.toFixed(0)}→${g.rssLastMb.toFixed(0)} MB)`, `${g.rssMbPerHour.toFixed(1)} MB/h`, a ? undefined : g.rssMbPerHour < RSS_MB_PER_HOUR);
    if (a) {
      row(`  RSS growth per hour just after a full GC at rest (${a.n} in ${a.windowMin.toFixed(0)} min, ${a.rssFirstMb.toFixed(0)}→${a.rssLastMb.toFixed(0)} MB; V8's free heap ${a.freeHeapFirstMb.toFixed(0)}→${a.freeHeapLastMb.toFixed(0)} MB)`, `${a.rssMbPerHour.toFixed(1)} MB/h`);
      row(`  memory the bridge holds, growth per hour just after a full GC (RSS less V8's free heap, ${a.heldFirstMb.toFixed(0)}→${a.heldLastMb.toFixed(0)} MB)`, `${a.heldMbPerHour.toFixed(1)} MB/h`, a.heldMbPerHour < RSS_MB_PER_HOUR);
      row(`  live heap growth per hour just after a full GC (${a.heapFirstMb.toFixed(0)}→${a.heapLastMb.toFixed(0)} MB)`, `${a.heapMbPerHour.toFixed(1)} MB/h`, a.heapMbPerHour < RSS_MB_PER_HOUR);
    }
    if (a) row(`  memory outside the heap just after a full GC (external)`, `${a.externalMbPerHour.toFixed(1)} MB/h`);
    for (const p of a?.split ?? []) row(`    resident in ${p.name} (${p.firstMb.toFixed(1)}→${p.lastMb.toFixed(1)} MB)`, `${p.mbPerHour.toFixed(1)} MB/h`);
    // fds sampled at any moment hold a burst's pipes and requests and the /proc reads in flight;
    // the fewest of each rest is what the bridge keeps. That is judged where measured.
    const f = growthAtRest(res.restFds, res.lastPid, res.samples);
    row(`  open fds growth per hour, sampled every 10 s (less ${FDS_PER_CLIENT} for each tmux control client: ${g.clientsFirst ?? '?'}→${g.clientsLast ?? '?'})`, `${g.fdsPerHour.toFixed(1)}/h`, f ? undefined : g.fdsPerHour < FDS_PER_HOUR);
    if (f) {
      row(`  open fds growth per hour, the fewest of each rest (${f.n} rests; less ${FDS_PER_CLIENT} for each control client: ${f.first.clients}→${f.last.clients})`, `${f.fdsPerHour.toFixed(1)}/h`, f.fdsPerHour < FDS_PER_HOUR);
      row('  the fewest open fds at rest by kind, first → last of the window', `${f.first.fds}: ${kinds(f.first.kinds)} → ${f.last.fds}: ${kinds(f.last.kinds)}`);
    }
  }
  row('CPU at rest between bursts', res.rest.cpuSecondsPerHour === null ? 'no rest measured' : `${res.rest.cpuSecondsPerHour.toFixed(0)} s/h (${(res.rest.cpuSecondsPerHour / 36).toFixed(1)}% of a core, over ${(res.rest.restMs / 60000).toFixed(1)} min)`);
  row('state disk filled to its last MB', res.disk.filled ? `${Math.round((res.disk.unfillAt - res.disk.fillAt) / 1000)} s, ${res.disk.freeWhileFull} bytes free` : 'not reached', res.disk.filled);
  row(`  state files after it: ${res.state.after} (${res.state.before} before): corrupt`, res.state.corrupt.length ? res.state.corrupt.join(', ') : 0, res.state.corrupt.length === 0);
  row('  state files lost', res.state.lost.length ? res.state.lost.join(', ') : 0, res.state.lost.length === 0);
  const pu = res.counts.pushes;
  if (pu) {
    const k = (name) => pu.kinds[name] ?? 0;
    row('pushes received at the push service (shown / withdrawn)', `${pu.received} (${pu.received - pu.withdrawals} / ${pu.withdrawals})`, pu.refused === 0 && pu.received > 0);
    row('  asks (pane dialogs / durable questions) / asks that pushed / pushed and withdrawn', `${pu.asksMade} / ${pu.durableAsked} / ${pu.asksPushed} / ${pu.pushedWithdrawn}`);
    row('  shown by kind: pane ask / durable / reminder / flood (the caps)', `${k('blocked')} / ${k('durable')} / ${k('reminder')} / ${k('flood')}`);
    row('  asks pushed twice', pu.twice, pu.twice === 0);
    row('  withdrawals of pushes never shown', pu.withdrawnUnshown.length, pu.withdrawnUnshown.length === 0);
  }
  const du = res.counts.durable;
  if (du) {
    row('durable questions asked / answered / decided by the agent / still open', `${du.asked} / ${du.answered} / ${du.decided} / ${du.open}`);
    row('  answers tapped (results)', `${du.taps} (${Object.entries(du.outcomes).map(([o, n]) => `${o} ${n}`).join(', ')}); ${du.wireCalls} calls reached the agent`);
    row('  answers the agent took once (the bridge said taken)', du.once, du.once > 0);
    row('  answers delivered twice (two requests taken for one question)', du.twice, du.twice === 0);
    row('  answers lost (said taken, the agent never got it)', du.lost, du.lost === 0);
    row('  results that disagree with the agent / with no final result', `${du.disagree} / ${du.unfinal}`, du.disagree + du.unfinal === 0);
    row('  request ids sent again: the same result', `${du.reuse.sameOk}/${du.reuse.same}`, du.reuse.sameOk === du.reuse.same);
  }
  const wk = res.counts.walky;
  if (wk) {
    row('walky messages (one bridge) sent by stand-in agents / CLI failed, said so, nothing sent / sender pane gone', `${wk.sent} / ${wk.failedSaidSo} / ${wk.noAnswer}`);
    row('  the CLI failed, said the id may have been taken, and the bridge had taken it (counted below)', wk.failedTaken ?? 0);
    row('  delivered once / in the inbox / refused with a reason / unknown, said so', `${wk.once} / ${wk.inbox} / ${wk.refused} / ${wk.unknown}`, wk.once > 0);
    row('  duplicated (typed twice)', wk.twice, wk.twice === 0);
    row('  lost (delivered, never typed; or no final receipt)', wk.lost, wk.lost === 0);
    row('  receipts that disagree (sender, bridge, receiving pane)', wk.disagree, wk.disagree === 0);
  }
  const cw = res.counts.crew;
  if (cw) {
    const k = cw.walky;
    row('walky across a crew (two bridges): sent lead→member / member→lead / CLI failed, said so / sender pane gone', `${k.byDir['lead→member'] ?? 0} / ${k.byDir['member→lead'] ?? 0} / ${k.failedSaidSo} / ${k.noAnswer}`);
    row('  the CLI failed, said the id may have been taken, and the bridge had taken it (counted below)', k.failedTaken ?? 0);
    row('  lead link cut through the proxy / member link back after the last', `${cw.cuts} times, ${(cw.cutMs / 1000).toFixed(0)} s / ${cw.backMs === null ? 'never' : `${(cw.backMs / 1000).toFixed(1)} s`}`, cw.backMs !== null);
    const out = cw.outages.map((o) => (o.end ?? Date.now()) - o.start);
    row('  the lead\'s phone saw the member unreachable (cuts, restarts): times / each (s) / open at the schedule\'s end', `${out.length} / ${out.map((ms) => (ms / 1000).toFixed(1)).join(' ') || '-'} / ${cw.outages.filter((o) => o.atSettle).length}`);
    row('  delivered once / in the inbox / refused with a reason / unknown, said so', `${k.once} / ${k.inbox} / ${k.refused}${Object.keys(k.reasons).length ? ` (${Object.entries(k.reasons).map(([x, n]) => `${x} ${n}`).join(', ')})` : ''} / ${k.unknown}`, k.once > 0);
    row('  duplicated (typed twice)', k.twice, k.twice === 0);
    row('  lost (delivered, never typed; or no final receipt)', k.lost, k.lost === 0);
    row(`  receipts that disagree (sender, receiving machine, target pane; ${k.compared} on both machines)`, k.disagree, k.disagree === 0 && k.compared > 0);
  }
  const nv = res.counts.nerve;
  if (nv) {
    const m = nv.messages;
    const ro = nv.roster;
    row('Nerve messages through the bridge: made / taken (first answer duplicate: tried again) / refused', `${m.made} / ${m.taken} (${m.retried}) / ${m.refused}`);
    row('  said to the model once (turn started once, once in its history)', m.once, m.once > 0 && !m.noHistory);
    row('  said twice / lost / refused but said', `${m.twice} / ${m.lost} / ${m.disagree}`, m.twice + m.lost + m.disagree === 0);
    row('  client_msg_id sent again: duplicate', `${m.reuse.sameOk}/${m.reuse.same}`, m.reuse.sameOk === m.reuse.same);
    row('  background tasks asked for / in the roster once / twice / missing / not asked for', `${ro.asked} / ${ro.once} / ${ro.twice} / ${ro.missing} / ${ro.extra}`, ro.asked > 0 && ro.once === ro.asked && ro.extra === 0);
    row('  stops asked / took effect / had ended first / did not take', `${ro.stops} / ${ro.stopped} / ${ro.endedFirst} / ${ro.notStopped}`, ro.notStopped === 0);
    row('  after Stop all: live records / running, background count / shell processes (peak during the run)', `${ro.live} / ${ro.facts ? `${ro.facts.is_running}, ${ro.facts.background_count}` : 'no answer'} / ${ro.shellsLeft} (${ro.shellsPeak})`, ro.live === 0 && ro.settled && ro.shellsLeft === 0 && (ro.longShells === 0 || ro.shellsPeak > 0));
  }
  const rl = res.counts.real;
  if (rl) {
    const s = rl.sends;
    const a = rl.answers;
    row(`real Claude Code panes (${rl.panes}, scripted API): sends made / into busy panes / behind open dialogs`, `${s.made} / ${rl.made.busy} / ${rl.made.dialogs}`);
    row('  typed exactly once (the API got it once as the user\'s message)', s.once, s.once > 0);
    row('  refused with a reason / uncertain, said so', `${s.refused} / ${s.unsure}`);
    row('  typed twice', s.twice, s.twice === 0);
    row('  lost (no final receipt, or typed receipt the API never got)', s.lost, s.lost === 0);
    row('  receipt says not sent, the API got it / mixed with other keys', `${s.notSentButTyped} / ${s.mixed}`, s.notSentButTyped + s.mixed === 0);
    row('  permission cards answered / typed / taken (a tool result) / refused', `${a.made} / ${a.typed} / ${a.taken} / ${a.refused}`, a.taken > 0);
    row('  uncertain, said so (the bridge stopped while pressing) / refused for', `${a.unsure} / ${JSON.stringify(a.refusedFor)}`);
    row('  answers taken twice (or a card answered by something else)', a.twice, a.twice === 0);
    row('  answers lost (typed, no tool result) or with no final receipt', a.lost + a.open, a.lost + a.open === 0);
  }
  const br = res.counts.browser;
  if (br) {
    row('Chromium phone: event socket reconnects (on its own, bridge restarts)', br.reconnects, br.reconnects >= res.faults.restarts);
    row('  dashboard rows (pane, state, label) once live: equal / differ / not comparable', `${br.equal} / ${br.differ} / ${br.uncompared}`, br.differ === 0 && br.equal > 0);
    row('  console errors / uncaught page errors', `${br.consoleErrors.length} / ${br.pageErrors.length}`, br.consoleErrors.length + br.pageErrors.length === 0);
    row('  the browser\'s own lines: while the bridge was away or starting / while pairing', `${br.away} / ${br.pairing.length}`);
    row('  screenshot at the end', br.screenshot ?? 'none');
  }
  const w = Math.max(...rows.map((r) => r[0].length));
  const v = Math.max(...rows.map((r) => r[1].length > 60 ? 0 : r[1].length));
  const head = `Soak: ${res.minutes} min (ran ${(res.elapsedMs / 60000).toFixed(1)}), seed ${res.seed}, ${res.panes} stand-in panes`;
  const text = [head, ...rows.map(([a, b, c]) => `${a.padEnd(w)}  ${b.padEnd(v)}  ${c}`.trimEnd()), failed ? 'SOAK FAILED' : 'SOAK PASSED'].join('\n');
  return { text, failed };
}

function perMinute(samples) {
  const out = [];
  for (const s of samples) {
    const m = Math.floor(s.t / 60_000);
    if (!out[m]) out[m] = { rss: Math.round(s.rss / 1024), fds: s.fds };
  }
  return out.filter(Boolean);
}
