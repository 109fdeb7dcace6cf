/**
 * Replays the audit-log flood: a web page fires no-cors POSTs from its own Origin with 8,000
 * character paths, and a local script fires unauthenticated ones; each refusal used to add its
 * whole path to `<state>/audit.log`, which was never capped. Now the log stays small, says that
 * the flood happened and how big it was, and rotates at its cap.
 */
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTmux, tempDir, testBridgeOptions } from '@collie/testkit';
import { startBridge } from '../../src/bridge';
import { AUDIT_MAX_BYTES } from '../../src/config';

const N = 200;
const HUGE = `/api/panes/${'A'.repeat(8000)}`;

type Line = Record<string, unknown>;
const lines = (text: string): Line[] =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line);

/** `n` requests, 20 at a time; their statuses. */
async function fire(n: number, request: () => Promise<Response>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, n - i) }, async () => (await request()).status));
    out.push(...batch);
  }
  return out;
}

/** Every refusal of one kind is in the log: written in full (path cut) or counted in a flood line. */
function accounted(all: Line[], code: string): number {
  const full = all.filter((l) => l['code'] === code && l['action'] === undefined);
  const floods = all.filter((l) => l['action'] === 'refused.flood' && l['code'] === code);
  return full.length + floods.reduce((sum, l) => sum + Number(l['count']), 0);
}

describe('the audit log under a flood of refused requests (attack replay)', () => {
  it('200 foreign-Origin POSTs and 200 unauthenticated ones with 8,000-character paths leave a small log that still counts them', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-flood-');
    const bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path));
    let stopped = false;
    try {
      const foreign = await fire(N, () => fetch(`${bridge.url}${HUGE}`, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'text/plain' }, body: 'x' }));
      expect(foreign.every((s) => s === 403)).toBe(true);
      const local = await fire(N, () => fetch(`${bridge.url}${HUGE}/send`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
      expect(local.every((s) => s === 401)).toBe(true);
      // Stopping writes what is still being counted.
      await bridge.stop();
      stopped = true;
    } finally {
      if (!stopped) await bridge.stop();
    }
    const file = join(state.path, 'audit.log');
    const text = await readFile(file, "utf8");
    expect(text.length).toBeLessThan(16 * 1024);
    const all = lines(text);
    for (const l of all) expect(JSON.stringify(l).length).toBeLessThan(1024);
    // The paths that are written are cut, and say so.
    const cut = all.find((l) => typeof l['path'] === 'string' && (l['path'] as string).startsWith('/api/panes/AAA'));
    expect(cut?.['path']).toMatch(/^\/api\/panes\/A+… \[cut: 8011 characters\]$/);
    expect((cut!['path'] as string).length).toBeLessThan(240);
    // The flood is recorded, with its size.
    const flood = all.find((l) => l['action'] === 'refused.flood' && l['code'] === 'forbidden_origin');
    expect(flood?.['summary']).toMatch(/^refused \d+ more like this in \d+ s$/);
    expect(accounted(all, 'forbidden_origin')).toBe(N);
    expect(accounted(all, 'unauthorized')).toBe(N);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  }, 120_000);

  it('a log at its cap rotates: audit.log starts again, one older file kept at 0600, none over the cap', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-rotate-');
    const file = join(state.path, 'audit.log');
    // A log just under its cap, as months of use leave it.
    const old = `${JSON.stringify({ at: '2026-01-01T00:00:00.000Z', action: 'old', pad: 'p'.repeat(200) })}\n`;
    await writeFile(file, old.repeat(Math.floor(AUDIT_MAX_BYTES / old.length)), { mode: 0o600 });
    const bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path));
    try {
      await fire(N, () => fetch(`${bridge.url}${HUGE}`, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'text/plain' }, body: 'x' }));
    } finally {
      await bridge.stop();
    }
    const names = (await readdir(state.path)).filter((n) => n.startsWith('audit.log')).sort();
    expect(names).toEqual(['audit.log', 'audit.log.1']);
    for (const n of names) {
      const st = await stat(join(state.path, n));
      expect(st.size).toBeLessThanOrEqual(AUDIT_MAX_BYTES);
      expect(st.mode & 0o777).toBe(0o600);
    }
    expect(lines(await readFile(`${file}.1`, 'utf8')).every((l) => l['action'] === 'old')).toBe(true);
    expect(accounted(lines(await readFile(file, 'utf8')), 'forbidden_origin')).toBe(N);
  }, 120_000);
});
