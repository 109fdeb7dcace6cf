import { describe, expect, it } from 'vitest';
import { plainReply, startClaude, startMessagesApi, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { call, finalReceipt } from './send-helpers';
import { UNICODE_CORPUS } from './unicode-corpus';

/**
 * Claude Code's own input box composes what it is given (NFC: `e` + U+0301 is sent as `é`,
 * Hangul jamo as syllables) and drops invisible characters between letters (zero-width
 * space, joiner and non-joiner, word joiner, BOM, soft hyphen), as it does for text a person
 * pastes (2.1.334, 2026-12-03). So a prompt must equal the text exactly up to that.
 */
const agentForm = (s: string) => s.replace(/\p{Default_Ignorable_Code_Point}/gu, '').normalize('NFC');

/** Texts per send: one short line, so the box shows the text itself, not a paste placeholder. */
const PER_SEND = 8;
const PANES = 2;

describe('Unicode a phone sends reaches the model exactly (issue 15, fault 3)', () => {
  it(`${UNICODE_CORPUS.length} texts, ${PER_SEND} to a send, over ${PANES} real Claude panes: every one typed into the pane and submitted as typed`, async () => {
    expect(UNICODE_CORPUS.length).toBeGreaterThanOrEqual(200);
    await using tmux = await startTmux();
    await using api = await startMessagesApi({ fallback: plainReply('Ok.') });
    await using state = await tempDir('collie-state');
    const panes = [];
    for (let i = 0; i < PANES; i++) panes.push(await startClaude(tmux, api, { session: `uni${i}` }));
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    try {
      const batches: string[] = [];
      for (let i = 0; i < UNICODE_CORPUS.length; i += PER_SEND) batches.push(`u${i / PER_SEND}: ${UNICODE_CORPUS.slice(i, i + PER_SEND).join(' | ')}`);
      const failures: string[] = [];
      const composed: string[] = [];
      let exact = 0;
      await Promise.all(
        panes.map(async (c, p) => {
          const id = `${tmux.name}:${c.paneId}`;
          for (const [n, text] of batches.entries()) {
            if (n % PANES !== p) continue;
            await until(bridge.hub, 'idle', (h) => { const x = h.panes.get(id); return x && (x.state === 'idle' || x.state === 'done') && x.draft === null; }, 60_000);
            const r = await call(bridge, id, 'send', { text, request_id: `uni-${n}` });
            const done = r.final ? r : await finalReceipt(bridge, `uni-${n}`);
            if (done.outcome !== 'typed into the pane') {
              failures.push(`${JSON.stringify(text)}: ${done.outcome}; the box: ${JSON.stringify(bridge.hub.panes.get(id)?.draft)}`);
              await tmux.tmux('send-keys', '-N', '300', '-t', c.paneId, 'BSpace');
              continue;
            }
            const q = await api.waitForRequest((x) => x.kind === 'main' && (x.userMessages.at(-1) ?? '').startsWith(`u${n}: `), 30_000).catch(() => null);
            const got = q?.userMessages.at(-1);
            if (got === text) exact++;
            else if (got !== undefined && agentForm(got) === agentForm(text)) composed.push(text);
            else failures.push(`${JSON.stringify(text)}: the model got ${JSON.stringify(got)}`);
          }
        }),
      );
      expect(failures.join('\n')).toBe('');
      console.log(`unicode corpus: ${exact} sends arrived byte for byte, ${composed.length} as Claude Code's input box makes them (NFC, invisible characters dropped)`);
    } finally {
      for (const c of panes) await c.kill();
    }
  }, 300_000);
});
