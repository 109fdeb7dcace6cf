// A step of the soak's schedule that never ends would hang the hour with nothing said (a run
// hung so at 410 s, with no request, child or file call of its own in flight). Each awaited step
// runs under a watch: pending past SAY_MS it is said by name, with what the process waits on;
// past its deadline the schedule goes on without it, and it is counted (a FAIL line of the table).

/** A step pending this long is said. */
const SAY_MS = 60_000;
/** A step pending this long is given up (its promise left behind) and counted. */
const DEADLINE_MS = 180_000;

export function watchSteps(log, t0) {
  const stuck = [];
  const secs = (ms) => Math.round(ms / 1000);
  /** `fn()` watched as `name`; `deadline: false` for a step the schedule cannot go on without (a bridge's start). */
  async function step(name, fn, { deadline = true } = {}) {
    const started = Date.now();
    const say = setTimeout(() => {
      const waits = {};
      for (const r of process.getActiveResourcesInfo()) waits[r] = (waits[r] ?? 0) + 1;
      log(`soak: step "${name}" pending ${secs(SAY_MS)} s (from ${secs(started - t0)} s); the process waits on ${JSON.stringify(waits)}`);
    }, SAY_MS);
    let giveUp;
    const late = new Promise((res) => {
      if (!deadline) return;
      giveUp = setTimeout(() => {
        stuck.push({ name, at: started - t0 });
        log(`soak: step "${name}" (from ${secs(started - t0)} s) given up after ${secs(DEADLINE_MS)} s`);
        res(undefined);
      }, DEADLINE_MS);
    });
    try {
      return await Promise.race([fn(), late]);
    } finally {
      clearTimeout(say);
      clearTimeout(giveUp);
    }
  }
  return { step, stuck };
}
