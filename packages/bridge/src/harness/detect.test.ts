import { describe, expect, it } from 'vitest';
import { detectHarnessFromScreen } from './read-screen';

describe('detectHarnessFromScreen', () => {
  it('finds nothing agent-like on a shell or an empty pane', () => {
    expect(detectHarnessFromScreen('')).toBeNull();
    expect(detectHarnessFromScreen('me@host:~/src$ ls\r\nREADME.md  package.json\r\nme@host:~/src$ ')).toBeNull();
    expect(detectHarnessFromScreen('❯ git status\nOn branch main\nnothing to commit, working tree clean\n❯ ')).toBeNull();
  });

  it('reads signs through the styling that splits them', () => {
    expect(detectHarnessFromScreen('\u001b[38;5;75mAider\u001b[0m v0.86.1')).toBe('aider');
    expect(detectHarnessFromScreen('\u001b[1mAider\u001b[0m')).toBeNull();
  });

  it("takes Claude's live prompt (a no-break space after the glyph) for Claude", () => {
    expect(detectHarnessFromScreen(`${'─'.repeat(40)}\n❯\u00a0\n${'─'.repeat(40)}`)).toBe('claude');
  });
});
