import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatApi, startOpencode, startTmux } from '@collie/testkit';

/**
 * The real OpenCode binary (Bun) unpacks a native library (`.<hash>-00000000.so`, 13.7 MB) into
 * its temp dir as it starts, and leaves it there when it is killed. Started by the testkit, its
 * temp dir is in its own home, so the library goes when the home does: a test run leaves none
 * in the machine's /tmp.
 */
describe('OpenCode’s temp dir', () => {
  it('its native library is unpacked inside its own home, and is gone with it after kill()', async () => {
    await using tmux = await startTmux();
    await using api = await startChatApi();
    const oc = await startOpencode(tmux, api);
    let libs: string[] = [];
    try {
      const pid = Number((await tmux.tmux('display-message', '-p', '-t', oc.paneId, '#{pane_pid}')).trim());
      const maps = await readFile(`/proc/${pid}/maps`, 'utf8');
      libs = [...new Set(maps.split('\n').map((l) => l.trim().split(/\s+/)[5] ?? '').filter((p) => /-0{8}\.so$/.test(p)))];
    } finally {
      await oc.kill();
    }
    expect(libs.length).toBeGreaterThan(0);
    for (const lib of libs) expect(lib.startsWith(`${join(oc.home, '.tmp')}/`)).toBe(true);
    expect(libs.some((l) => existsSync(l))).toBe(false);
    expect(existsSync(oc.home)).toBe(false);
  }, 300_000);
});
