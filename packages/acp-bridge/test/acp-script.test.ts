import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acpScriptAgent, tempDir } from '@collie/testkit';
import { durableRegistry } from '../../bridge/src/commands/durable-registry';
import { agentIn, closedList, durableBridge, post } from '../../bridge/test/durable-kit';
import { until } from '../../bridge/test/harness';
import { SILENT_TURN } from '../src/agent-words';
import { runAcp } from '../src/run';
import { acpSetup, conv, inConv, items, lastNotice, replyText, tap } from './acp-kit';

/**
 * `collie durable acp` against a real ACP agent process (the testkit's scripted agent, over
 * stdio) and a real bridge reading sources.json: every mapping of docs/acp.md, end to end.
 */
describe('an ACP agent as a durable agent', () => {
  it('a prompt streams back as thinking and reply items; a retry of the same request id sends nothing twice', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    await using s = await acpSetup(acpScriptAgent(folder.path));
    const row = await until(s.bridge.hub, 'the starters', (h) => (h.durable.agents.get('acp')?.starters.length ? h.durable.agents.get('acp') : undefined));
    expect(row).toMatchObject({ runtime: 'acp', state: 'ready', controls: { message: true, stop: true, steer: false, history: true, reopen: true } });
    expect(row?.starters).toEqual([expect.objectContaining({ id: 'new', label: 'New conversation' })]);
    const started = await tap.start(s, 'st-1');
    expect(started.outcome).toBe('taken');
    const id = started.conversationId!;
    expect((await tap.say(s, id, 'hello', 'say-1')).outcome).toBe('taken');
    await inConv(s, id, 'the settled reply', (_c, xs) => xs.some((i) => i.kind === 'reply' && i.final && i.text === 'Hello from the script agent.'));
    const xs = items(s, id);
    expect(xs.map((i) => i.kind)).toEqual(['user', 'thinking', 'reply']);
    expect(xs[0]).toMatchObject({ kind: 'user', text: 'hello', requestId: 'say-1' });
    expect(conv(s, id)).toMatchObject({ title: 'hello', working: false });
    // The phone retries the same tap (it was not sure it arrived): the agent is prompted once.
    expect((await tap.say(s, id, 'hello', 'say-1')).outcome).toBe('taken');
    expect((await tap.say(s, id, 'again', 'say-2')).outcome).toBe('taken');
    await inConv(s, id, 'the second reply', (_c, x) => replyText(x).includes('You said: again'));
    expect(items(s, id).filter((i) => i.kind === 'user').map((i) => ('text' in i ? i.text : ''))).toEqual(['hello', 'again']);
    // A turn the agent ends without one update reads as such, not as a line ignored.
    await tap.say(s, id, 'silent', 'say-3');
    await inConv(s, id, 'the silent turn said', (c, x) => c?.working === false && lastNotice(x) === SILENT_TURN);
    expect(items(s, id).filter((i) => i.kind === 'notice' && i.text === SILENT_TURN)).toHaveLength(1);
  });

  it('a plan is the steps progress; a permission request is a card with the agent’s four kinds; the answer lets the edit run', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    await using s = await acpSetup(acpScriptAgent(folder.path));
    const id = (await tap.start(s, 'st-1')).conversationId!;
    await tap.say(s, id, 'edit', 'say-1');
    const c = await inConv(s, id, 'the card', (c) => (c?.questions.length ? c : undefined));
    expect(c.progress).toEqual({ kind: 'steps', steps: [{ label: 'Read the notes', state: 'done' }, { label: 'Write the change', state: 'running' }, { label: 'Tidy up', state: 'pending' }] });
    const q = c.questions[0]!;
    expect(q).toMatchObject({
      kind: 'permission', title: 'Allow Edit notes.md?', answerable: true, toolCall: { name: 'edit' },
      options: [
        { id: 'o0', action: 'allow', label: 'Allow this edit' },
        { id: 'o1', action: 'always', label: 'Allow edits to notes.md' },
        { id: 'o2', action: 'deny', label: 'Reject' },
        { id: 'o3', action: 'deny', label: 'Never' },
      ],
    });
    expect(q.body).toContain('-two');
    const xs = items(s, id);
    expect(xs.find((i) => i.kind === 'tool')).toMatchObject({ name: 'edit', input: 'Edit notes.md', status: 'running' });
    expect(xs.find((i) => i.kind === 'code')).toMatchObject({ language: 'diff', text: expect.stringContaining('+2') });
    expect((await tap.answer(s, id, q, { kind: 'permission', option: 'o1' }, 'ans-1')).outcome).toBe('taken');
    // The same request id again: the first result, and the agent is answered once.
    expect((await tap.answer(s, id, q, { kind: 'permission', option: 'o1' }, 'ans-1')).outcome).toBe('taken');
    expect((await tap.answer(s, id, q, { kind: 'permission', option: 'o0' }, 'ans-2')).outcome).toBe('already_answered');
    await inConv(s, id, 'the edit done', (_c, x) => x.some((i) => i.kind === 'tool' && i.status === 'done' && i.output === 'edited') && replyText(x).includes('Edited (always).'));
    await inConv(s, id, 'the turn over', (c) => c?.working === false);
    // Denied: the tool item says so.
    await tap.say(s, id, 'edit', 'say-2');
    const q2 = (await inConv(s, id, 'the second card', (c) => c?.questions[0]))!;
    expect((await tap.answer(s, id, q2, { kind: 'permission', option: 'o3' }, 'ans-3')).outcome).toBe('taken');
    await inConv(s, id, 'left it', (_c, x) => replyText(x).includes('Left it.') && x.filter((i) => i.kind === 'tool').at(-1)?.kind === 'tool');
    expect(items(s, id).filter((i) => i.kind === 'tool').map((i) => (i.kind === 'tool' ? i.status : ''))).toEqual(['done', 'denied']);
    // An agent that asks before it announces the tool call: the card still sits under a tool
    // item (started from the request), and the agent's own tool_call after it adds none.
    await tap.say(s, id, 'askfirst', 'say-3');
    const q3 = (await inConv(s, id, 'the card before the tool call', (c) => c?.questions[0]))!;
    const asked = items(s, id).filter((i) => i.kind === 'tool').at(-1);
    expect(asked).toMatchObject({ kind: 'tool', name: 'execute', input: 'Run make', status: 'running', callId: q3.kind === 'permission' ? q3.toolCall?.id : 'none' });
    expect(q3.body).toBe('Build the project');
    expect((await tap.answer(s, id, q3, { kind: 'permission', option: 'o1' }, 'ans-4')).outcome).toBe('taken');
    await inConv(s, id, 'not made', (c, x) => c?.working === false && replyText(x).includes('Not made.'));
    await tap.say(s, id, 'askfirst', 'say-4');
    const q4 = (await inConv(s, id, 'the next card', (c) => c?.questions[0]))!;
    expect((await tap.answer(s, id, q4, { kind: 'permission', option: 'o0' }, 'ans-5')).outcome).toBe('taken');
    await inConv(s, id, 'made', (c, x) => c?.working === false && replyText(x).includes('Made.'));
    const tools = items(s, id).filter((i) => i.kind === 'tool');
    expect(tools.map((i) => (i.kind === 'tool' ? [i.input, i.status, i.output] : []))).toEqual([
      ['Edit notes.md', 'done', 'edited'],
      ['Edit notes.md', 'denied', ''],
      ['Run make', 'denied', ''],
      ['Run make', 'done', 'built'],
    ]);
    // A tool call the agent reports failed: the item reads failed, with its output.
    await tap.say(s, id, 'fail', 'say-5');
    await inConv(s, id, 'the failed call', (c, x) => c?.working === false && replyText(x).includes('The tests failed.'));
    expect(items(s, id).filter((i) => i.kind === 'tool').at(-1)).toMatchObject({ name: 'execute', input: 'Run the tests', status: 'failed', output: '2 tests failed' });
  });

  it('Stop cancels the turn; modes are belt buttons; an elicitation is a form card', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    await using s = await acpSetup(acpScriptAgent(folder.path));
    const id = (await tap.start(s, 'st-1')).conversationId!;
    const belt = await inConv(s, id, 'the modes', (c) => (c?.buttons.length ? c : undefined));
    expect(belt.buttons.map((b) => [b.label, b.icon, b.disabled])).toEqual([['Ask first', 'check', true], ['Code', null, false], ['Fast model', 'check', true], ['Deep model', null, false]]);
    await tap.say(s, id, 'slow', 'say-1');
    await inConv(s, id, 'the slow reply growing', (c, x) => c?.working && replyText(x).includes('3 '));
    expect((await tap.stop(s, id, 'stop-1')).outcome).toBe('taken');
    await inConv(s, id, 'stopped', (c, x) => c?.working === false && x.some((i) => i.kind === 'notice' && i.text === 'stopped'));
    const grown = replyText(items(s, id)).length;
    expect(grown).toBeLessThan(2_000);
    const turn = conv(s, id)!.turn;
    expect((await tap.button(s, id, 'mode-1', turn, 'mode-1')).outcome).toBe('taken');
    await inConv(s, id, 'Code checked', (c) => c?.buttons.find((b) => b.label === 'Code')?.disabled);
    // The model choice (a config option of category model): the tap selects it in the session.
    expect((await tap.button(s, id, 'model-1', conv(s, id)!.turn, 'model-1')).outcome).toBe('taken');
    await inConv(s, id, 'Deep model checked', (c) => c?.buttons.find((b) => b.label === 'Deep model')?.disabled && !c.buttons.find((b) => b.label === 'Fast model')?.disabled);
    await tap.say(s, id, 'model', 'say-m');
    await inConv(s, id, 'the agent on the deep model', (_c, x) => replyText(x).includes('Model: deep'));
    await tap.say(s, id, 'elicit', 'say-2');
    const q = (await inConv(s, id, 'the form', (c) => c?.questions[0]))!;
    expect(q).toMatchObject({ kind: 'form', title: 'Who is it for?' });
    expect(q.kind === 'form' && q.fields.map((f) => [f.kind, f.label, f.required])).toEqual([['text', 'Name', true], ['toggle', 'Urgent', false], ['choice', 'Size', false], ['text', 'Count', false]]);
    expect((await tap.answer(s, id, q, { kind: 'form', values: { f0: 'Ada', f1: true, f2: ['M'], f3: '3' } }, 'ans-1')).outcome).toBe('taken');
    await inConv(s, id, 'the elicited reply', (_c, x) => replyText(x).includes('Elicited: {"action":"accept","content":{"name":"Ada","urgent":true,"size":"M","count":3}}'));
    // A URL elicitation: the link, and a choice card under it; "Opened it" accepts.
    await tap.say(s, id, 'elicit-url', 'say-3');
    const u = (await inConv(s, id, 'the url card', (c) => c?.questions[0]))!;
    expect(u).toMatchObject({ kind: 'choice', title: 'Sign in to the service', body: 'https://example.com/sign-in?code=1', options: [{ id: 'open', label: 'Opened it' }, { id: 'cancel', label: 'Cancel' }] });
    expect(items(s, id).find((i) => i.kind === 'link')).toMatchObject({ url: 'https://example.com/sign-in?code=1' });
    expect((await tap.answer(s, id, u, { kind: 'choice', options: ['open'] }, 'ans-2')).outcome).toBe('taken');
    await inConv(s, id, 'the url elicitation accepted', (c, x) => c?.working === false && replyText(x).includes('Elicited: {"action":"accept"}'));
  });

  it('files inside the folder are served, outside refused with a clear error', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    await writeFile(join(folder.path, 'in.txt'), 'inside words');
    await using s = await acpSetup(acpScriptAgent(folder.path));
    const id = (await tap.start(s, 'st-1')).conversationId!;
    await tap.say(s, id, `read ${join(folder.path, 'in.txt')}`, 'say-1');
    await inConv(s, id, 'read inside', (_c, x) => replyText(x).includes('Read: inside words'));
    await tap.say(s, id, `read ${join(folder.path, '..', '..', 'etc', 'passwd')}`, 'say-2');
    await inConv(s, id, 'refused outside', (_c, x) => /Refused: .*outside the session's folder/u.test(replyText(x)));
    expect(await readFile(join(folder.path, 'in.txt'), 'utf8')).toBe('inside words');
    // Writes too: inside written, outside (a path that climbs out) refused and nothing written.
    await tap.say(s, id, `write ${join(folder.path, 'out.txt')} new words`, 'say-w1');
    await inConv(s, id, 'written inside', (_c, x) => replyText(x).includes('Wrote: '));
    expect(await readFile(join(folder.path, 'out.txt'), 'utf8')).toBe('new words');
    const outside = join(folder.path, '..', `${basename(folder.path)}-escaped.txt`);
    await tap.say(s, id, `write ${outside} escaped`, 'say-w2');
    await inConv(s, id, 'write outside refused', (_c, x) => x.some((i) => i.kind === 'reply' && /^Refused: .*refused: .*-escaped\.txt is outside the session's folder/u.test(i.text)));
    expect(existsSync(outside)).toBe(false);
    // Terminals too: one in a folder inside runs there, one outside is refused.
    await mkdir(join(folder.path, 'sub'));
    await tap.say(s, id, `term ${join(folder.path, 'sub')}`, 'say-3');
    await inConv(s, id, 'the terminal inside', (_c, x) => /Terminal: \S*\/sub \(exit 0\)/u.test(replyText(x)));
    await tap.say(s, id, 'term /', 'say-4');
    await inConv(s, id, 'the terminal outside refused', (_c, x) => x.some((i) => i.kind === 'reply' && i.text.startsWith("Refused: Invalid params: refused: / is outside the session's folder")));
  });

  it('closing a conversation puts it in the closed list, and reopening loads the session', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    await using s = await acpSetup(acpScriptAgent(folder.path));
    const id = (await tap.start(s, 'st-1')).conversationId!;
    await tap.say(s, id, 'hello', 'say-1');
    await inConv(s, id, 'the reply', (c, x) => c?.working === false && replyText(x).includes('Hello'));
    const second = (await tap.start(s, 'st-2')).conversationId!;
    expect(second).not.toBe(id);
    expect((await post(s.bridge, '/close', { agent: 'acp', conversationId: id, request_id: 'cl-1' })).outcome).toBe('taken');
    await inConv(s, id, 'gone from the open list', (c) => c === undefined);
    const page = await closedList(s.bridge, 'acp');
    expect(page.state === 'ok' && page.conversations.map((c) => [c.id, c.title])).toEqual([[id, 'hello']]);
    const reopened = await post(s.bridge, '/reopen', { agent: 'acp', conversationId: id, request_id: 'ro-1' });
    expect(reopened).toMatchObject({ outcome: 'taken', conversationId: id });
    await inConv(s, id, 'the replayed line', (_c, x) => x.some((i) => i.kind === 'user' && i.text === 'hello'));
  });

  it('a retry after a restart of the bridge process runs nothing twice: the request ids are kept on disk', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    await using s = await acpSetup(acpScriptAgent(folder.path));
    const id = (await tap.start(s, 'st-1')).conversationId!;
    await tap.say(s, id, 'hello', 'say-1');
    await inConv(s, id, 'the reply', (c, x) => c?.working === false && replyText(x).includes('Hello'));
    await tap.say(s, id, 'edit', 'say-2');
    const q = (await inConv(s, id, 'the card', (c) => c?.questions[0]))!;
    expect((await tap.answer(s, id, q, { kind: 'permission', option: 'o0' }, 'ans-1')).outcome).toBe('taken');
    await inConv(s, id, 'the edit done', (c, x) => c?.working === false && replyText(x).includes('Edited (yes).'));
    const registry = durableRegistry(s.env);
    expect((await stat(join(registry.socketDir, 'acp.requests'))).mode & 0o777).toBe(0o600);
    await s.running.stop();
    // The same name started again: a new process with no conversations open.
    const again = await runAcp({ name: 'acp', serve: false, agent: acpScriptAgent(folder.path) }, registry);
    try {
      expect(again.acp.durable.conversations.size).toBe(0);
      // The tap that opened the first conversation, retried: its first result, and no new session.
      expect(await again.acp.durable.call('/starter', { requestId: 'st-1', starterId: 'new' })).toMatchObject({ outcome: 'taken', conversationId: id });
      expect(await again.acp.durable.call('/message', { requestId: 'say-1', conversationId: id, text: 'hello', steer: false })).toMatchObject({ outcome: 'taken' });
      // The permission's answer, retried: its first result, not "that question is not open".
      expect(await again.acp.durable.call('/answer', { requestId: 'ans-1', conversationId: id, questionId: q.id, version: q.version, answer: { kind: 'permission', option: 'o0' } })).toMatchObject({ outcome: 'taken' });
      expect(await again.acp.durable.call('/answer', { requestId: 'ans-9', conversationId: id, questionId: q.id, version: q.version, answer: { kind: 'permission', option: 'o0' } })).toMatchObject({ outcome: 'not_open' });
      expect(again.acp.durable.conversations.size).toBe(0);
      // A new id runs.
      const fresh = await again.acp.durable.call('/starter', { requestId: 'st-2', starterId: 'new' });
      expect(fresh.outcome).toBe('taken');
      expect(again.acp.durable.conversations.size).toBe(1);
    } finally {
      await again.stop();
    }
  });

  it('an agent that keeps no sessions: the closed list is this run’s, Reopen is refused, a restart says its session is new', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    await using s = await acpSetup(acpScriptAgent(folder.path, { plain: true }), { serve: true });
    // Its capabilities are the hello's controls: no loadSession, no Reopen offered.
    expect(s.bridge.hub.durable.agents.get('acp')?.controls).toMatchObject({ message: true, stop: true, history: true, reopen: false });
    const id = (await tap.start(s, 'st-1')).conversationId!;
    await tap.say(s, id, 'hello', 'say-1');
    await inConv(s, id, 'the reply', (c, x) => c?.working === false && replyText(x).includes('Hello'));
    expect((await post(s.bridge, '/close', { agent: 'acp', conversationId: id, request_id: 'cl-1' })).outcome).toBe('taken');
    await inConv(s, id, 'gone from the open list', (c) => c === undefined);
    const page = await closedList(s.bridge, 'acp');
    expect(page.state === 'ok' && page.conversations.map((c) => [c.id, c.title])).toEqual([[id, 'hello']]);
    expect(await post(s.bridge, '/reopen', { agent: 'acp', conversationId: id, request_id: 'ro-1' })).toMatchObject({ outcome: 'refused', reason: 'This conversation cannot be reopened.' });
    // After a restart of the agent the next line opens a new session, and the thread says so.
    const other = (await tap.start(s, 'st-2')).conversationId!;
    await tap.say(s, other, 'crash', 'say-2');
    await inConv(s, other, 'running again', (_c, x) => x.some((i) => i.kind === 'notice' && i.text === 'The ACP agent is running again.'));
    await tap.say(s, other, 'hello', 'say-3');
    await inConv(s, other, 'a new session said, and the reply', (c, x) => c?.working === false && x.some((i) => i.kind === 'notice' && i.text.startsWith('A new agent session: the agent keeps no sessions')) && replyText(x).includes('Hello from the script agent.'));
  });

  it('a tap retried through a restarted bridge (the phone not sure it arrived) answers the permission once and prompts once', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    await using s = await acpSetup(acpScriptAgent(folder.path));
    const id = (await tap.start(s, 'st-1')).conversationId!;
    await tap.say(s, id, 'edit', 'say-1');
    const q = (await inConv(s, id, 'the card', (c) => c?.questions[0]))!;
    expect((await tap.answer(s, id, q, { kind: 'permission', option: 'o0' }, 'ans-1')).outcome).toBe('taken');
    await inConv(s, id, 'the edit done', (c, x) => c?.working === false && replyText(x).includes('Edited (yes).'));
    // The bridge the phone talks to restarts (same state); the agent runs on.
    await s.bridge[Symbol.asyncDispose]();
    const again = await durableBridge(s.state.path, s.config);
    try {
      await agentIn(again.hub, 'acp', 'ready', 30_000);
      const s2 = { bridge: again, name: s.name };
      await inConv(s2, id, 'the conversation at the new bridge', (c) => c?.working === false);
      expect((await tap.answer(s2, id, q, { kind: 'permission', option: 'o0' }, 'ans-1')).outcome).toBe('taken');
      expect((await tap.answer(s2, id, q, { kind: 'permission', option: 'o3' }, 'ans-2')).outcome).not.toBe('taken');
      expect((await tap.say(s2, id, 'edit', 'say-1')).outcome).toBe('taken');
      await tap.say(s2, id, 'hello', 'say-2');
      await inConv(s2, id, 'the next reply', (c, x) => c?.working === false && replyText(x).includes('Hello from the script agent.'));
      const xs = items(s2, id);
      expect(xs.filter((i) => i.kind === 'user').map((i) => ('text' in i ? i.text : ''))).toEqual(['edit', 'hello']);
      expect(replyText(xs).split('Edited (yes).')).toHaveLength(2);
      expect(xs.filter((i) => i.kind === 'tool').map((i) => (i.kind === 'tool' ? i.status : ''))).toEqual(['done']);
    } finally {
      await again[Symbol.asyncDispose]();
    }
  });
});
