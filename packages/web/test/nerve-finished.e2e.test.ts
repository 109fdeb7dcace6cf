/**
 * Nerve's finished agents on the phone at 390×844, with `collie demo`'s Nerve (the real Agent SDK
 * and `claude` on the scripted Messages API) whose two background agents finish after a few
 * seconds: each reads what it found (not "Still reading the files."), counts its tokens, and its
 * tab shows its transcript; the header's counts agree with the dock's.
 */
import { join } from 'node:path';
import type { AgentRecord } from '@collie/protocol';
import { artifactPath, tempDir } from '@collie/testkit';
import { startDemoNerve, type DemoNerve } from '../../testkit/src/demo-nerve';
import { describe, expect, it } from 'vitest';
import { durableRig, untilDurable } from './durable-rig';

function untilRoster(demo: DemoNerve, what: string, check: (agents: AgentRecord[]) => boolean, ms = 90_000): Promise<void> {
  const s = demo.nerve.gateway.sessions.get(demo.sessionId)!;
  return new Promise((resolve, reject) => {
    if (check(s.roster.list())) return resolve();
    const t = setTimeout(() => (off(), reject(new Error(`timed out waiting for ${what}`))), ms);
    const off = demo.nerve.gateway.subscribe(() => {
      if (!check(s.roster.list())) return;
      clearTimeout(t);
      off();
      resolve();
    });
  });
}

describe("nerve's finished agents on the phone", () => {
  it('read what they found, count their tokens, show their transcript; header and dock agree', async () => {
    await using dir = await tempDir('collie-web-nerve-done-');
    const demo = await startDemoNerve(join(dir.path, 'demo'), undefined, join(dir.path, 'state', 'nerve'), { agentMs: 3_000 });
    try {
      await untilRoster(demo, 'both agents done', (a) => a.filter((r) => r.kind === 'agent' && r.status === 'completed').length === 2);
      demo.nerve.gateway.flush();
      await using rig = await durableRig(dir.path, [{ name: 'nerve', address: demo.nerve.durable! }]);
      const { page } = rig;
      await untilDurable(rig.bridge.hub, 'the nerve session', (d) => d.conversations.has(`nerve\n${demo.sessionId}`));
      await page.goto(`/#/durable/nerve/${demo.sessionId}`);
      const done = page.locator('main .agent-line.agent-completed');
      await expect.poll(() => done.count(), { timeout: 30_000 }).toBe(2);
      for (const text of await done.allTextContents()) {
        expect(text).not.toContain('Still reading the files.');
        expect(text).toContain('Read the files');
        expect(text).not.toMatch(/\b0 tok\b/);
      }
      // The turn the runtime started when the work settled answers in words, not an empty "You said:".
      await page.locator('main .chat-reply', { hasText: 'The background work settled' }).first().waitFor({ timeout: 30_000 });
      expect(await page.locator('main .chat-reply', { hasText: /^You said:\s*$/ }).count()).toBe(0);
      const counts = await page.locator('.agent-dock-counts').textContent();
      expect(counts).toBe('1 running · 2 done');
      await expect.poll(() => page.locator('.durable-header .durable-line2').textContent()).toBe(`Background agents: ${counts}`);
      await page.screenshot({ path: artifactPath('web/nerve-done-390.png') });

      await page.locator('.agent-dock').click();
      await page.getByRole('complementary', { name: 'Agents' }).getByRole('button', { name: 'Open Read the docs' }).click();
      await page.locator('.agent-tab .tl', { hasText: 'Read the files' }).waitFor({ timeout: 30_000 });
      expect(await page.getByText('Nothing in the transcript yet.').count()).toBe(0);
      await page.screenshot({ path: artifactPath('web/nerve-done-tab-390.png') });
      expect(rig.errors).toEqual([]);
    } finally {
      await demo.stop();
    }
  }, 240_000);
});
