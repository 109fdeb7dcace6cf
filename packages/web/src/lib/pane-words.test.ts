import { describe, expect, it } from 'vitest';
import { makePane } from '../../test/fixtures';
import { spokenDuration } from './duration';
import { labelParts, rowName, seenAgo, stateWord } from './pane-words';

describe('pane words', () => {
  it('keeps the branch as its own part, and labels a shell outside git by its folder', () => {
    expect(labelParts(makePane({ id: 'a:%1', label: 'a-very-long-repository-name#feature/login-refresh' }))).toEqual({
      name: 'a-very-long-repository-name',
      branch: '#feature/login-refresh',
    });
    expect(labelParts(makePane({ id: 'a:%2', harness: 'shell', label: 'vm', cwd: '/home/me/notes' }))).toEqual({ name: 'notes', branch: '' });
    expect(labelParts(makePane({ id: 'a:%3', harness: 'shell', label: 'shop#main', cwd: '/x/shop' })).branch).toBe('#main');
  });

  it('calls a shell a shell, and says a row state and its time in words', () => {
    expect(stateWord('unknown', 'shell')).toBe('Shell');
    expect(stateWord('blocked', 'claude')).toBe('Blocked');
    const pane = makePane({ id: 'a:%4', state: 'blocked', since: 1_000, label: 'shop#main' });
    expect(rowName(pane, 59_000, ['Permission'])).toBe('shop#main, Blocked for 58 seconds, Permission');
    expect(spokenDuration(80 * 60_000)).toBe('1 hour 20 minutes');
    expect(spokenDuration(60_000)).toBe('1 minute');
  });
});

describe('when a crew member was last seen', () => {
  it('says it in words a person reads at a glance', () => {
    const now = 1_796_000_000_000;
    expect(seenAgo(now - 5_000, now)).toBe('just now');
    expect(seenAgo(now + 5_000, now)).toBe('just now');
    expect(seenAgo(now - 4 * 60_000, now)).toBe('4 min ago');
    expect(seenAgo(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(seenAgo(now - 86_400_000, now)).toBe('1 day ago');
    expect(seenAgo(now - 3 * 86_400_000, now)).toBe('3 days ago');
  });
});
