import { describe, expect, it } from 'vitest';
import { claudeAgent } from '../../harness/claude/index';
import { composeAttachments } from './compose';

describe('the text of a message with files', () => {
  it("puts the agent's references first, or the bare paths after the text", () => {
    const claude = claudeAgent.attachment?.bind(claudeAgent);
    expect(composeAttachments(['/s/u/a.png', '/s/u/b.txt'], 'why?', claude)).toBe('@/s/u/a.png @/s/u/b.txt why?');
    expect(composeAttachments(['/s/u/a.png'], '  ', claude)).toBe('@/s/u/a.png');
    expect(composeAttachments(['/s/u/a.png'], 'why?', undefined)).toBe('why? /s/u/a.png');
    // Never a leading `/`: that is a command in most agents.
    expect(composeAttachments(['/s/u/a.png'], '', undefined)).toBe('Attached: /s/u/a.png');
  });
});
