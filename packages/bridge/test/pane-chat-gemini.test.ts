import { describe, expect, it } from 'vitest';
import { agentReply, agentShell, geminiInputReady, geminiMissing } from '@collie/testkit';
import { openChat } from './chat-client';
import { geminiKind, liveAgentPane } from './live-rig';

/**
 * The real Gemini CLI 0.61 writes its session file; the pane's Chat reads it. The CLI appends
 * and closes the file, so the bridge finds it by time: the newest session in the folder's chats
 * that started since the pane's CLI did (docs/agents.md). The CLI writes a message record again
 * as its tool calls settle: the chat shows the call once, settled. Waits are generous: the CLI
 * takes 8–30 s to start on a loaded machine.
 */
const SLOW = 180_000;
const missing = geminiMissing();
if (missing) console.log(`skipped: ${missing}`);

describe.skipIf(missing !== null)('a pane’s Chat from the real Gemini CLI’s session file', () => {
  it('shows the person’s words, the answers and a shell call with its output, in order; /clear starts a new chat', async () => {
    await using desk = await liveAgentPane(geminiKind(), SLOW);
    const { api, agent: gemini, bridge, id } = desk;
    await using client = await openChat(bridge, id);
    api.script(agentReply('Hello from Gemini.'));
    await gemini.submit('hi gemini');
    await client.until('the answer', () => client.items(id).includes('markdown Hello from Gemini.'), SLOW);
    const first = client.chats.get(id)?.source ?? '';
    expect(first).toMatch(/\/\.gemini\/tmp\/[^/]+\/chats\/session-[^/]+\.jsonl$/);

    api.script(...agentShell('echo collie-marker', { closing: 'Ran it.' }));
    await gemini.submit('run the marker');
    // A read-only command: the CLI runs it without asking.
    await client.until('the closing words', () => client.items(id).includes('markdown Ran it.'), SLOW);
    // The call's output as the model got it (the CLI's shell sometimes reads none: "Output: (empty)").
    const sent = api.requests.findLast((r) => r.kind === 'main' && r.toolOutputs.length > 0)?.toolOutputs.at(-1) ?? '';
    const output = (JSON.parse(sent) as { output: string }).output.replace(/^<untrusted_context>\n?/, '');
    expect(output).toMatch(/^Output: /);
    expect(client.items(id)).toEqual(['user hi gemini', 'markdown Hello from Gemini.', 'user run the marker', `tool run_shell_command echo collie-marker [done] ${output.split('\n')[0]}`, 'markdown Ran it.']);

    // /clear: a new session file in the same process; the chat follows it.
    await gemini.submit('/clear');
    // The new session's file is there (an empty chat) and the input is back before the next words.
    await client.until('the cleared chat', () => client.chats.get(id)?.source !== first && client.items(id).length === 0, SLOW);
    await gemini.waitForScreen(geminiInputReady, SLOW);
    api.script(agentReply('A fresh start.'));
    await gemini.submit('hello again');
    await client.until('the new session’s answer', () => client.items(id).includes('markdown A fresh start.'), SLOW).catch(async (e: Error) => {
      throw new Error(`${e.message}\nthe screen:\n${await gemini.capture()}`);
    });
    expect(client.items(id)).toEqual(['user hello again', 'markdown A fresh start.']);
    expect(client.chats.get(id)?.source).not.toBe(first);
  }, 600_000);
});
