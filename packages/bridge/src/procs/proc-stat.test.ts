import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCmdline, parseStat } from './proc-stat';

describe('parseStat', () => {
  it('reads pid, comm and ppid', () => {
    expect(parseStat('4242 (claude) S 4100 4242 4100 34816 4242 4194304 1 0 0 0\n')).toEqual({
      pid: 4242,
      comm: 'claude',
      ppid: 4100,
    });
  });

  it('keeps spaces and parentheses inside comm', () => {
    expect(parseStat('77 (a) b (c)) R 1 77 77 0 -1')).toEqual({ pid: 77, comm: 'a) b (c)', ppid: 1 });
    expect(parseStat('9 (tmux: server) S 1 9 9 0 -1')).toEqual({ pid: 9, comm: 'tmux: server', ppid: 1 });
  });

  it('rejects other shapes and never throws', () => {
    expect(parseStat('')).toBeNull();
    expect(parseStat('x (y) S 1')).toBeNull();
    expect(parseStat('1 (y) S')).toBeNull();
    fc.assert(fc.property(fc.string(), (s) => void parseStat(s)));
  });
});

describe('parseCmdline', () => {
  it('splits on NUL and drops the padding', () => {
    expect(parseCmdline('node\0/usr/bin/codex\0--yolo\0')).toEqual(['node', '/usr/bin/codex', '--yolo']);
    expect(parseCmdline('claude\0\0\0\0')).toEqual(['claude']);
    expect(parseCmdline('')).toEqual([]);
  });

  it('round-trips arguments without NUL', () => {
    const arg = fc.string({ minLength: 1 }).filter((s) => !s.includes('\0'));
    fc.assert(
      fc.property(fc.array(arg), (argv) => {
        expect(parseCmdline(argv.map((a) => `${a}\0`).join(''))).toEqual(argv);
      }),
    );
  });
});
