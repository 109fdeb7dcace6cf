import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { startClaude, startMessagesApi, startTmux, tempDir } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { readScreen } from '../src/harness';
import { makeRedactor } from '../src/redact';
import { MAX_SAMPLES, SAMPLE_CHARS, UnreadScreens, agentVersion, agentsCheck, readSeen, unreadDir } from '../src/unread';

describe('an unread screen is loud', () => {
  it('a known agent whose screen matches no shape reads unknown, with the reason in words; a shell has none', () => {
    expect(readScreen('claude', 'nothing Claude would ever draw')).toMatchObject({ state: 'unknown', reason: 'Collie cannot read this Claude Code screen' });
    expect(readScreen('codex', '')).toMatchObject({ state: 'unknown', reason: 'Collie cannot read this Codex screen' });
    expect(readScreen('shell', '$ ls').reason).toBeUndefined();
  });

  it('keeps one masked sample per agent and version, 0600 in a 0700 folder, bounded; doctor lists them', async () => {
    await using state = await tempDir('collie-unread-');
    const store = await UnreadScreens.open(state.path, makeRedactor(true));
    const secret = 'sk-ant-api03-' + 'a'.repeat(80);
    await store.note('claude', '2.1.334', null);
    await store.note('codex', '0.171.0', `weird screen ${secret}\n${'x'.repeat(SAMPLE_CHARS)}`);
    await store.note('codex', '0.171.0', 'a second weird screen');
    const dir = unreadDir(state.path);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const sample = join(dir, 'codex-0.171.0.txt');
    expect((await stat(sample)).mode & 0o777).toBe(0o600);
    const text = await readFile(sample, 'utf8');
    expect(text).toContain('weird screen');
    expect(text).not.toContain(secret);
    expect(text.length).toBeLessThanOrEqual(SAMPLE_CHARS);
    expect(await readSeen(state.path)).toMatchObject({ claude: { '2.1.334': { unread: 0, sample: null } }, codex: { '0.171.0': { unread: 2, sample: 'codex-0.171.0.txt' } } });
    expect((await agentsCheck(state.path)).detail).toBe(`claude 2.1.334; codex 0.171.0: 2 screens Collie could not read, sample ${sample} (please report it)`);

    for (let i = 0; i < MAX_SAMPLES + 5; i++) await store.note('pi', `0.${i}.0`, 'unread');
    expect((await readdir(dir)).filter((f) => f.endsWith('.txt')).length).toBe(MAX_SAMPLES);
  });

  it('the version of the real Claude Code in a pane, asked of its binary once', async () => {
    await using tmux = await startTmux();
    await using api = await startMessagesApi();
    await using claude = await startClaude(tmux, api);
    const pid = Number((await tmux.tmux('display-message', '-p', '-t', claude.paneId, '#{pane_pid}')).trim());
    expect(await agentVersion(pid, 'claude')).toBe('2.1.334');
    expect(await agentVersion(pid, 'claude')).toBe('2.1.334');
    expect(await agentVersion(pid, 'codex')).toBe('unknown');
  });
});
