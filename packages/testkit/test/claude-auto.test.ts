import { describe, expect, test } from 'vitest';
import { bashPermission, claudeInputReady, claudePermissionDialog, startClaude, startMessagesApi, startTmux } from '../src';

describe('the real Claude Code TUI in auto mode', () => {
  test('the scripted server-side check lets a command run without a dialog, or blocks it', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using claude = await startClaude(tmux, api, { permissions: 'auto' });
    expect(await claude.capture()).toMatch(/auto mode on/);

    // The command calls back into the API, so the API sees whether it ran.
    api.script(bashPermission(`curl -s ${api.url}/ran-in-auto-mode`));
    await claude.submit('fetch the page');
    await api.waitForRequest((r) => r.kind === 'probe' && r.path === '/ran-in-auto-mode');
    const done = await claude.waitForScreen((s) => s.includes('The command finished') && claudeInputReady(s));
    expect(claudePermissionDialog(done)).toBe(false);
    expect((await api.waitForRequest((r) => r.toolResults.length > 0)).body).toMatchObject({
      safeguards: [{ type: 'dangerous_tool_use' }],
    });

    api.script(bashPermission(`curl -s ${api.url}/blocked-in-auto-mode`, { flagged: true }));
    await claude.submit('fetch the other page');
    await claude.waitForScreen(/Blocked by auto mode/);
    await claude.waitForScreen(/The command did not run/);
    expect(api.requests.some((r) => r.path === '/blocked-in-auto-mode')).toBe(false);
  });
});
