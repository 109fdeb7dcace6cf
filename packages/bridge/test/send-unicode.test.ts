import { describe, expect, it } from 'vitest';
import { plainReply, startClaude, startMessagesApi, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { call, finalReceipt } from './send-helpers';
import { UNICODE_CORPUS } from './unicode-corpus';

/** Texts per send: one short line, so the box shows the text itself, not a paste placeholder. */
const PER_SEND = 8;
const PANES = 2;

describe('Unicode a phone sends reaches the model exactly (issue 15, fault 3)', () => {
  it(`${UNICODE_CORPUS.length} texts, ${PER_SEND} to a send, over ${PANES} real Claude panes: every one typed into the pane and submitted exactly`, async () => {
    expect(UNICODE_CORPUS.length).toBeGreaterThanOrEqual(200);
    await using tmux = await startTmux();
    await using api = await startMessagesApi({ fallback: plainReply('Ok.') });
    await using state = await tempDir('collie-state');
    const panes = [];
    for (let i = 0; i < PANES; i++) panes.push(await startClaude(tmux, api, { session: `uni${i}` }));
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    try {
      const batches: string[] = [];
      for (let i = 0; i < UNICODE_CORPUS.length; i += PER_SEND) batches.push(UNICODE_CORPUS.slice(i, i + PER_SEND).join(' | '));
      const failures: string[] = [];
      await Promise.all(
        panes.map(async (c, p) => {
          const id = `${tmux.name}:${c.paneId}`;
          for (const [n, text] of batches.entries()) {
            if (n % PANES !== p) continue;
            await until(bridge.hub, 'idle', (h) => { const x = h.panes.get(id); return x && (x.state === 'idle' || x.state === 'done') && x.draft === null; }, 60_000);
            const r = await call(bridge, id, 'send', { text, request_id: `uni-${n}` });
            const done = r.final ? r : await finalReceipt(bridge, `uni-${n}`);
            if (done.outcome !== 'typed into the pane') {
              failures.push(`${JSON.stringify(text)}: ${done.outcome}`);
              continue;
            }
            const q = await api.waitForRequest((x) => x.kind === 'main' && x.userMessages.at(-1) === text, 30_000).catch(() => null);
            if (!q) failures.push(`${JSON.stringify(text)}: the model got ${JSON.stringify(api.requests.filter((x) => x.kind === 'main').at(-1)?.userMessages.at(-1))}`);
          }
        }),
      );
      expect(failures).toEqual([]);
    } finally {
      for (const c of panes) await c.kill();
    }
  }, 300_000);
});
