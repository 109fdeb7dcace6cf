import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactPath, repoRoot } from '@collie/testkit';

// The soak (bench/soak.mjs, `npm run soak`) for three minutes with a fixed seed, sized for a
// 2-core machine under load: 50 stand-in panes, every kind of event of the long run (sends into
// idle, busy and dialog panes and while someone types, reused request ids, card answers, panes
// and sessions made and killed, the bridge kill -9ed and SIGTERMed, phones dropping, the state
// disk full), walky across a crew of two bridges with the lead's link cut, a Nerve, two real
// Claude Code panes on scripted APIs and a Chromium page on the dashboard through the restarts.
// It exits 0 only when every line of its table passes.
const SEED = '31';

// Every fault a run found became a test of its own and a fix (docs/benchmarks.md, "The soak").
// `npm test` runs it alone, after the other tests (the `soak` project in vitest.config.ts).
describe('the soak, three minutes', () => {
  it('loses nothing, types nothing twice, mixes no keys, corrupts no state', async () => {
    const child = spawn(process.execPath, [join(repoRoot, 'bench/soak.mjs'), '3', '--seed', SEED, '--panes', '50'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    // Stopped before the test's own timeout, so it says which phase it was in and its lines are kept.
    const stop = setTimeout(() => child.kill('SIGTERM'), 11 * 60_000);
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    clearTimeout(stop);
    // The table and the run's own lines, kept whether it passed or not.
    writeFileSync(artifactPath('soak-3min.txt'), `${out}\n${err}`);
    expect(code, `${out}\n${err.slice(-3000)}`).toBe(0);
    expect(out).toMatch(/^Soak: 3 min .*seed 31, 50 stand-in panes/m);
    for (const line of ['typed twice', 'lost \\(no final receipt', 'submitted mixed', 'events missed without sync.reset', 'state files lost', 'tmux control clients of bridges gone, running at the end', 'panes left with their input off at the end', 'the soak\'s own steps that failed \\(said in its log\\)', 'bridge exits no one asked for \\(started again\\)']) {
      expect(out).toMatch(new RegExp(`${line}.*\\s0\\s+pass$`, 'm'));
    }
    const made = Number(/^sends made\s+(\d+)/m.exec(out)?.[1]);
    const once = Number(/typed exactly once.*?\s(\d+)$/m.exec(out)?.[1]);
    expect(made).toBeGreaterThan(100);
    expect(once).toBeGreaterThan(made / 2);
    expect(out).toMatch(/^bridge kill -9 \/ SIGTERM \/ started again\s+[1-9]\d* \/ [1-9]\d* \/ [1-9]/m);
    // Walky across a crew of two bridges (the lead's link cut) and Nerve through the bridge.
    expect(out).toMatch(/^ {2}receipts that disagree \(sender, receiving machine, target pane; [1-9]\d* on both machines\)\s+0\s+pass$/m);
    expect(out).toMatch(/^ {2}said twice \/ lost \/ refused but said\s+0 \/ 0 \/ 0\s+pass$/m);
    expect(out).toMatch(/^ {2}background tasks asked for .*pass$/m);
    // Real Claude Code panes on their scripted APIs, and the Chromium page through the restarts.
    expect(out).toMatch(/^real Claude Code panes \(2, scripted API\): sends made .*\s[1-9]\d* \/ \d+ \/ \d+$/m);
    expect(out).toMatch(/^ {2}dashboard rows \(pane, state, label\) once live: equal \/ differ \/ not comparable\s+[1-9]\d* \/ 0 \/ \d+\s+pass$/m);
    expect(out).toMatch(/^ {2}console errors \/ uncaught page errors\s+0 \/ 0\s+pass$/m);
    expect(out).toMatch(/^SOAK PASSED$/m);
  }, 12 * 60_000);
});
