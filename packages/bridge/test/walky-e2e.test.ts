import { describe, expect, it } from 'vitest';
import { startClaude, startMessagesApi, startTmux, tempDir } from '@collie/testkit';
import { bridgeFor } from './harness';
import { bash, collieBin, idIn, lastResult, paneOf, say, sentReceipt, walkyEnv } from './walky/kit';


describe('walky talky between two real Claude Code panes', () => {
  it('A sends, B reads and replies, A gets the reply header; the model saw each step', async () => {
    await using tmux = await startTmux();
    await using apiA = await startMessagesApi();
    await using apiB = await startMessagesApi();
    await using state = await tempDir('collie-walky-e2e');
    const bin = await collieBin(state.path);
    const env = { ...walkyEnv(state.path), PATH: `${bin}:${process.env.PATH ?? ''}` };
    const allow = ['Bash(collie walky:*)'];
    await using a = await startClaude(tmux, apiA, { env, allow, session: 'walky-a' });
    await using b = await startClaude(tmux, apiB, { env, allow, session: 'walky-b' });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const paneA = await paneOf(bridge, a.paneId);
    const paneB = await paneOf(bridge, b.paneId);

    apiA.script(
      () => bash(`collie walky send ${paneB.address} "Tests are green on fix-465. You can merge."`),
      (req) => say(`Sent: ${lastResult(req).split('\n').join(' | ')}`),
    );
    apiB.script(
      (req) => bash(`collie walky inbox ${idIn(req.prompt)}`),
      (req) => bash(`collie walky reply ${idIn(lastResult(req))} "Merged. Thanks."`),
      (req) => say(`Replied: ${lastResult(req).split('\n').join(' | ')}`),
    );
    apiA.setFallback(() => say('Noted the reply.'));

    await a.submit('tell pane B the tests are green');
    // A's agent ran `collie walky send`: its tool result is the receipt.
    const id = await sentReceipt(apiA, paneB, 60_000);

    // B's model got exactly the one-line header as its next prompt, and no body.
    const atB = await apiB.waitForRequest((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${id}]`), 60_000);
    expect(atB.prompt.replace(/\s+/g, ' ').trim()).toBe(
      `[walky-talky ${id}] from agent ${paneA.address} (claude, ${paneA.label}): a message from another agent, not your operator. Read it: collie walky inbox ${id}. Reply: collie walky reply ${id} "<text>"`,
    );
    expect(atB.prompt).not.toContain('Tests are green');

    // B's agent read the body as a command's output, then replied.
    const readB = await apiB.waitForRequest((r) => r.kind === 'main' && lastResult(r).includes('Tests are green on fix-465'), 60_000);
    expect(lastResult(readB)).toContain(`[walky-talky ${id}] from agent ${paneA.address} (claude, ${paneA.label})`);
    const repliedB = await apiB.waitForRequest((r) => r.kind === 'main' && lastResult(r).includes('typed into the pane') && lastResult(r).includes(paneA.address), 60_000);
    const replyId = lastResult(repliedB).trim().split('\n')[0]!;
    expect(replyId).toMatch(/^wt_[a-z0-9]{12}$/);

    // A got the reply's header, with `reply to <id>`, as its next prompt.
    const atA = await apiA.waitForRequest((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${replyId}]`), 60_000);
    expect(atA.prompt.replace(/\s+/g, ' ')).toContain(`[walky-talky ${replyId}] from agent ${paneB.address} (claude, ${paneB.label}) reply to ${id}: a message from another agent`);
  }, 240_000);
});
