/**
 * A Nerve restart on the phone (390×844): Nerve as a child process (the real `claude` on the
 * scripted Messages API) behind the real bridge; two exchanges from the phone, then `kill -9`
 * and a fresh start: the phone shows the whole conversation as before, in its order, through the
 * same bridge and through a fresh one that never saw it (Nerve holds the conversation itself).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { artifactPath, startMessagesApi, tempDir, type Turn } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { claudeEnv, startNerveProcess } from '../../nerve/test/harness';
import { durableRig, untilDurable } from './durable-rig';

const say = (text: string): Turn => ({ blocks: [{ type: 'text', text }], durationMs: 0 });

describe('nerve restart on the phone', () => {
  it('after kill -9 and a new start, every earlier line and reply is back in order', async () => {
    await using api = await startMessagesApi();
    await using dir = await tempDir('collie-web-nerve-restart-');
    const env = await claudeEnv(api, dir.path);
    const state = join(dir.path, 'state', 'nerve');
    const socket = join(dir.path, 'nerve.sock');
    const config = join(dir.path, 'config.yaml');
    await writeFile(config, `listen:\n  port: 0\nstate_dir: ${state}\ncwd: ${join(dir.path, 'work')}\ndurable_socket: ${socket}\n`);
    api.script({ main: [() => say('First answer.'), () => say('Second answer.'), () => say('Third answer.')] });
    let nerve = await startNerveProcess(config, env);
    try {
      await using rig = await durableRig(dir.path, [{ name: 'nerve', address: socket }]);
      const { page } = rig;
      await untilDurable(rig.bridge.hub, 'nerve ready', (d) => d.agents.get('nerve')?.state === 'ready');
      // A new session from the phone: the starter opens it in Chat.
      await page.goto('/#/durable/nerve');
      await page.getByText('New conversation').click();
      await page.getByText('New Claude session').click();
      await page.waitForURL(/#\/durable\/nerve\/[^/]+$/);
      const s = { session_id: decodeURIComponent(page.url().split('/').at(-1)!) };
      const box = page.getByRole('textbox', { name: 'Message' });
      for (const [text, answer] of [
        ['hello one', 'First answer.'],
        ['hello two', 'Second answer.'],
      ] as const) {
        await box.fill(text);
        await page.getByRole('button', { name: 'Send', exact: true }).click();
        await page.locator('.chat-reply', { hasText: answer }).waitFor({ timeout: 60_000 });
      }
      const thread = () => page.locator('main .chat-user, main .chat-reply').allTextContents();
      const before = await thread();
      expect(before).toEqual(['hello one', 'First answer.', 'hello two', 'Second answer.']);

      nerve.child.kill('SIGKILL');
      await new Promise((r) => nerve.child.once('exit', r));
      await untilDurable(rig.bridge.hub, 'nerve gone', (d) => d.agents.get('nerve')?.state !== 'ready', 60_000);
      nerve = await startNerveProcess(config, env);
      await untilDurable(rig.bridge.hub, 'nerve back', (d) => d.agents.get('nerve')?.state === 'ready' && d.conversations.has(`nerve\n${s.session_id}`), 60_000);
      // The conversation goes on after the restart, and what came before it is still there, reloaded too.
      await box.fill('hello three');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.locator('.chat-reply', { hasText: 'Third answer.' }).waitFor({ timeout: 60_000 });
      await expect.poll(thread).toEqual([...before, 'hello three', 'Third answer.']);
      await page.reload();
      await page.locator('.chat-reply', { hasText: 'Third answer.' }).waitFor({ timeout: 30_000 });
      expect(await thread()).toEqual([...before, 'hello three', 'Third answer.']);
      expect(rig.errors).toEqual([]);
      // Nerve itself holds the conversation: a bridge that never saw it (a fresh one, a fresh phone) shows all of it.
      await using fresh = await durableRig(join(dir.path, 'fresh'), [{ name: 'nerve', address: socket }]);
      await untilDurable(fresh.bridge.hub, 'the session on a fresh bridge', (d) => d.conversations.has(`nerve\n${s.session_id}`), 60_000);
      await fresh.page.goto(`/#/durable/nerve/${s.session_id}`);
      await fresh.page.locator('.durable-header').waitFor();
      await expect.poll(() => fresh.page.locator('main .chat-user, main .chat-reply').allTextContents(), { timeout: 30_000 }).toEqual([...before, 'hello three', 'Third answer.']);
      await fresh.page.screenshot({ path: artifactPath('web/nerve-restart-390.png') });
    } finally {
      nerve.child.kill('SIGKILL');
    }
  }, 240_000);
});
