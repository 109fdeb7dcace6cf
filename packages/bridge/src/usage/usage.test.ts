import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeScreenLimit } from '../harness/claude/limit';
import { lineTally, opencodeUsage } from './tally';

/** The footer and answer the real Claude Code 2.1.334 drew at a 429 with the unified limit's reset (usage-claude.test.ts). */
const SCREEN = [
  '❯ one more thing',
  "  ⎿  You've hit your 5-hour limit · resets 8:50am (UTC)",
  '● Usage limit reached · set to continue automatically at 8:50am',
  '────────',
  '❯ ',
  '────────',
  '  ⚠ Usage limit reached · limit resets 8:50am',
  '    Continuing automatically at 8:50am · Esc to cancel',
].join('\n');

describe('Claude Code’s screen limit', () => {
  it('reads the footer’s reset as the next 8:50 in the zone its answer names', () => {
    const now = Date.UTC(2026, 11, 5, 6, 50);
    expect(claudeScreenLimit(SCREEN, now)).toEqual({ resetsAt: '2026-12-05T08:50:00.000Z' });
    // Past 8:50 already: tomorrow's.
    expect(claudeScreenLimit(SCREEN, Date.UTC(2026, 11, 5, 9, 0))).toEqual({ resetsAt: '2026-12-06T08:50:00.000Z' });
    expect(claudeScreenLimit(SCREEN.replace('(UTC)', '(Europe/Berlin)'), now)).toEqual({ resetsAt: '2026-12-05T07:50:00.000Z' });
  });

  it('the answer alone in the scrollback is no limit now: only the footer counts', () => {
    expect(claudeScreenLimit(SCREEN.split('\n').slice(0, 3).join('\n'), Date.now())).toBeNull();
  });
});

describe('usage tallies', () => {
  it('Claude Code writes a message once per content block: it counts once, in its latest version', () => {
    const t = lineTally('claude');
    const line = (id: string, out: number) => JSON.stringify({ type: 'assistant', timestamp: '2026-12-05T06:00:00Z', message: { id, model: 'claude-opus-4-5-20251101', usage: { input_tokens: 10, cache_creation_input_tokens: 20, cache_read_input_tokens: 30, output_tokens: out } } });
    for (const l of [line('a', 1), line('a', 5), line('b', 7)]) t?.line(l);
    expect(t?.usage()).toMatchObject({ model: 'claude-opus-4-5-20251101', contextTokens: 60, contextWindow: 200_000, windowFrom: 'table', sessionTokens: 65 + 67 });
  });

  it('an OpenCode message still running (no tokens yet) adds nothing', () => {
    const done = JSON.stringify({ role: 'assistant', modelID: 'm', cost: 0.5, tokens: { input: 100, output: 10, reasoning: 0, cache: { read: 5, write: 0 } } });
    const running = JSON.stringify({ role: 'assistant', modelID: 'm', cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } });
    expect(opencodeUsage([done, running])).toMatchObject({ contextTokens: 105, sessionTokens: 115, costUsd: 0.5 });
  });

  it('a model named like a property every object has (constructor, toString, __proto__) has no window', () => {
    // A run of the property below in a full CI found one: the window was Object's own function.
    for (const model of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf-20251101']) {
      const t = lineTally('claude')!;
      t.line(JSON.stringify({ type: 'assistant', message: { id: 'm1', model, usage: { input_tokens: 5, output_tokens: 2 } } }));
      const u = t.usage()!;
      expect(u.model).toBe(model);
      expect(u.contextWindow, model).toBeUndefined();
      expect(u.windowFrom, model).toBeUndefined();
    }
  });

  it('no line, however malformed, throws or yields figures outside the schema', () => {
    fc.assert(
      fc.property(fc.constantFrom('claude', 'codex', 'gemini', 'pi') as fc.Arbitrary<'claude' | 'codex' | 'gemini' | 'pi'>, fc.array(fc.oneof(fc.string(), fc.json(), fc.record({ type: fc.constant('assistant'), message: fc.record({ id: fc.string(), model: fc.string(), usage: fc.dictionary(fc.constantFrom('input_tokens', 'output_tokens', 'cache_read_input_tokens'), fc.oneof(fc.double(), fc.integer(), fc.string())) }) }).map((o) => JSON.stringify(o)))), (agent, lines) => {
        const t = lineTally(agent);
        for (const l of lines) t?.line(l);
        const u = t?.usage() ?? null;
        if (u) for (const v of [u.contextTokens, u.sessionTokens, u.contextWindow]) if (v !== undefined) expect(Number.isInteger(v) && v >= 0, String(v)).toBe(true);
      }),
    );
  });
});
