// The bridge at rest with 50 idle agent panes: CPU share, RSS, and processes it spawns,
// over a window of 60 s (after the panes have been read once).
// Run: node bench/idle-cost.mjs [seconds=60]
import { childPids, procStats, settle, startAgents, startBridgeProcess, totalForks } from './lib.mjs';

const SECONDS = Number(process.argv[2] ?? 60);
const agents = startAgents({ panes: 50, sessions: 10 });
const bridge = await startBridgeProcess(agents);
try {
  await settle(bridge, 50);
  // Let start-up settle before the window opens: V8 collects the first reads' garbage over the
  // next half minute (seen in a CPU profile, 2026-12-02), and a pane whose transcript is not
  // found is looked for again on a slowing timer that reaches once a minute after 60 s: both
  // are start-up, not rest. COLLIE_BENCH_REST_WAIT (ms) sets another wait.
  await new Promise((r) => setTimeout(r, Number(process.env.COLLIE_BENCH_REST_WAIT ?? 120_000)));
  const known = new Set(childPids(bridge.pid));
  const persistent = known.size;
  const spawned = new Set();
  const forks0 = totalForks();
  const a = procStats(bridge.pid);
  let maxRss = a.rss;
  const t0 = Date.now();
  while (Date.now() - t0 < SECONDS * 1000) {
    await new Promise((r) => setTimeout(r, 50));
    for (const pid of childPids(bridge.pid)) if (!known.has(pid)) spawned.add(pid);
    maxRss = Math.max(maxRss, procStats(bridge.pid).rss);
  }
  const b = procStats(bridge.pid);
  const forks = totalForks() - forks0;
  const hz = 100; // USER_HZ on Linux
  const cpuPct = ((b.ticks - a.ticks) / hz / SECONDS) * 100;
  console.log(JSON.stringify({ panes: 50, seconds: SECONDS, cpuPercentOfOneCore: +cpuPct.toFixed(3), rssMB: +(b.rss / 1024).toFixed(1), maxRssMB: +(maxRss / 1024).toFixed(1), persistentChildren: persistent, childrenSpawnedInWindow: spawned.size, machineForksInWindow: forks }, null, 2));
} finally {
  bridge.stop();
  agents.stop();
}
