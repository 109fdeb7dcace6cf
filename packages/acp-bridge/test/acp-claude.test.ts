import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashPermission, claudeBinary, FAKE_API_KEY, plainReply, startMessagesApi, tempDir } from '@collie/testkit';
import { acpSetup, conv, inConv, replyText, tap } from './acp-kit';

/**
 * The Claude Code ACP adapter (`@zed-industries/claude-agent-acp`, on the Claude Agent SDK) driving
 * the real `claude` binary (CLAUDE_CODE_EXECUTABLE) against the testkit's scripted Messages API.
 * The adapter is not a dependency of the project: COLLIE_CLAUDE_ACP names its dist/index.js
 * (`npm install --prefix P @zed-industries/claude-agent-acp@0.23.1`).
 */
const adapter = process.env.COLLIE_CLAUDE_ACP ?? '';
describe.skipIf(!adapter || !existsSync(adapter))('the Claude Code ACP adapter as a durable agent', () => {
  it('a prompt and its reply; a Bash permission answered from the card', async () => {
    await using api = await startMessagesApi();
    await using home = await tempDir('collie-claude-acp-home-');
    await using folder = await tempDir('collie-claude-acp-cwd-');
    const config = join(home.path, 'config');
    await mkdir(config, { mode: 0o700 });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home.path,
      ANTHROPIC_BASE_URL: api.url,
      ANTHROPIC_API_KEY: FAKE_API_KEY,
      CLAUDE_CONFIG_DIR: config,
      CLAUDE_CODE_EXECUTABLE: claudeBinary(),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    };
    await using s = await acpSetup({ command: process.execPath, args: [adapter], cwd: folder.path, env }, { requestMs: 120_000 }, 'claude');
    const id = (await tap.start(s, 'st-1')).conversationId!;
    api.script(plainReply('Hello from the scripted Claude.'));
    expect((await tap.say(s, id, 'say hello', 'say-1')).outcome).toBe('taken');
    await inConv(s, id, 'the reply', (c, x) => c?.working === false && replyText(x).includes('Hello from the scripted Claude.'), 90_000);

    const marker = join(folder.path, 'ran.txt');
    api.script(bashPermission(`touch ${marker}`));
    await tap.say(s, id, 'make the marker', 'say-2');
    const q = (await inConv(s, id, 'the Bash card', (c) => c?.questions[0], 90_000))!;
    expect(q.kind).toBe('permission');
    const allow = q.kind === 'permission' ? q.options.find((o) => o.action === 'allow') : undefined;
    expect((await tap.answer(s, id, q, { kind: 'permission', option: allow!.id }, 'ans-1')).outcome).toBe('taken');
    await inConv(s, id, 'the command ran', (c, x) => c?.working === false && replyText(x).includes('The command finished'), 90_000);
    expect(existsSync(marker)).toBe(true);
    expect(conv(s, id)?.working).toBe(false);
  });
});
