import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Pane } from '@collie/protocol';
import { tempDir } from '@collie/testkit';
import { PaneChat } from '../src/transcripts/pane-chat';

/**
 * An agent that opens its transcript some time after its pane last changed state (Codex opens
 * its rollout at the first turn; on a loaded machine that turn's working state can come and go
 * between two reads of the pane): its Chat finds the file without another change of the pane.
 */
describe('a pane’s Chat when the transcript appears after the pane last changed', () => {
  it('a Codex process that opens its rollout later is found without a pane update', async () => {
    await using home = await tempDir('collie-chat-late-');
    const day = join(home.path, 'sessions', '2026', '12', '05');
    await mkdir(day, { recursive: true });
    const rollout = join(day, 'rollout-2026-12-05T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl');
    // A program run as `codex.js` (as the npm package's launcher is) that opens the rollout when told.
    const script = join(home.path, 'codex.js');
    await writeFile(
      script,
      `const fs = require('node:fs');
process.stdin.once('data', () => { fs.openSync(${JSON.stringify(rollout)}, 'a'); process.stdout.write('opened\\n'); });
setInterval(() => {}, 1000);`,
    );
    const agent = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await once(agent, 'spawn');
      const pane = { id: 't:%1', pid: agent.pid!, harness: 'codex', command: 'node', state: 'idle' } as unknown as Pane;
      const chat = new PaneChat(pane.id, pane, { lines: (l: readonly string[]) => [...l], text: (t: string) => t } as never, '/proc');
      const pages: { source: unknown; reason: string | null }[] = [];
      await chat.subscribe((m) => pages.push({ source: m.source, reason: m.reason }));
      await chat.start();
      expect(pages.at(-1)?.source ?? null).toBeNull();
      expect(pages.at(-1)?.reason).toBe('No conversation in this Codex session yet.');
      agent.stdin.write('open\n');
      await once(agent.stdout, 'data');
      const deadline = Date.now() + 20_000;
      while (!pages.some((p) => p.source !== null) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      chat.close();
      expect(pages.at(-1)?.source).toMatchObject({ agent: 'codex', path: rollout });
    } finally {
      agent.kill('SIGKILL');
    }
  }, 60_000);
});
