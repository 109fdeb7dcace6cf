import { artifactPath, tempDir } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { serveFlood } from '../../bridge/test/security/hostile-durable';
import { durableRig, sock, untilDurable } from './durable-rig';

/**
 * A durable agent that floods (101 conversations too many, 100 KB items, 700 items in one
 * conversation; the raw wire, no SDK) at 390×844: its home says what Collie did not keep, and a
 * conversation that lost older items says so at the top of its chat.
 */
describe('durable agents: a flooding agent on the phone (390×844)', () => {
  it('the home shows the notice, the trimmed chat starts with its own', async () => {
    await using work = await tempDir('collie-durable-flood-');
    await using flood = await serveFlood(sock(work.path, 'flood'));
    void flood;
    await using rig = await durableRig(work.path, [{ name: 'flood', address: sock(work.path, 'flood') }]);
    await untilDurable(rig.bridge.hub, 'the flood read', (d) => (d.threads.get('flood\nlong') ?? []).some((i) => i.id === 'last') && !!d.agents.get('flood')?.kept, 60_000);
    const page = rig.page;
    await page.goto('/#/durable/flood');
    const notice = page.locator('.notice', { hasText: 'This durable agent sent more than Collie keeps' });
    await notice.waitFor();
    expect(await notice.locator('.notice-title').textContent()).toBe('Not everything is shown');
    expect(await notice.locator('.notice-body').textContent()).toContain('201 conversations past the first 100 open ones are not shown');
    expect(await page.locator('.durable-open .durable-conv').count()).toBe(100);
    await page.screenshot({ path: artifactPath('web/durable-flood-home.png') });
    // A conversation whose older items went: the chat's first line says so.
    const trimmed = [...rig.bridge.hub.durable.threads.entries()].find(([k, items]) => k.startsWith('flood\n') && items[0]?.id === 'collie:kept');
    expect(trimmed).toBeDefined();
    const conv = trimmed![0].split('\n')[1]!;
    await page.goto(`/#/durable/flood/${encodeURIComponent(conv)}`);
    await page.locator('.chat-notice', { hasText: 'older items of this conversation were dropped' }).first().waitFor();
    await page.screenshot({ path: artifactPath('web/durable-flood-chat.png') });
    expect(rig.errors).toEqual([]);
  }, 180_000);
});
