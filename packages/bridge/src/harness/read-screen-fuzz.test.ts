import { readFileSync } from 'node:fs';
import { Harness, ScreenReading } from '@collie/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectHarnessFromScreen, readScreen } from './read-screen';
import { screenCommand } from './screen-command';
import { parseScreen } from './screen/parse-screen';

const FIXTURES = new URL('../../../testkit/corpus/panes/', import.meta.url);
const HARNESSES = Harness.options;
const E = '\u001b';
const dim = (s: string): string => `${E}[2m${s}${E}[0m`;

/**
 * Pieces of screens: the glyphs and phrases the readers key on, escapes whole and broken,
 * every kind of line end, and arbitrary code points (lone surrogates included).
 */
const piece = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      'a', 'Z', '7', ' ', '\u00a0', '─', '❯', '>', '›', '!', '│', '╭',
      '╮', '╰', '╯', '☐', '☒', '✔', '[', ']', '#', '.', '…', '✢',
      '⠏', '(', ')', '?', ':', '←', '→', 'π', '▶', '●', '┌', '┐',
    ),
  },
  { weight: 3, arbitrary: fc.constantFrom('\n', '\r\n', '\r', '\n\n') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      `${E}[2m`, `${E}[0m`, `${E}[22m`, `${E}[38;2;2;2;2m`, `${E}[48;5;2m`, `${E}[`, `${E}]8;;`,
      `${E}\\`, E, '\u0007', '\t', '\u009b', '\ud800',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '─'.repeat(40),
      '❯\u00a0',
      '❯ 1. Yes',
      '  2. No',
      'Do you want to proceed?',
      'esc to interrupt',
      '✢ Puzzling… (3s)',
      ' ⠏ Working… ⟦esc⟧',
      '╭─ Ask ───────╮',
      '╭── π > ⬢ Auto ▶────╮',
      '╰─ text ─╯',
      '  4. Chat about this',
      '[Pasted text #1 +2 lines]',
      'Enter to select · ↑/↓ to navigate · Esc to cancel',
      'Review your answers',
      '← ☐ A  ☐ B  ✔ Submit  →',
      'Claude has written up a plan',
      '› Ask Codex to do anything',
      '(esc to cancel, 3s)',
      'Permission required',
      'Allow once   Allow always   Reject',
      '(Y)es/(N)o [Yes]: ',
      '> ',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);
const screenArb = fc.array(piece, { maxLength: 300 }).map((parts) => parts.join(''));
const harnessArb = fc.constantFrom(...HARNESSES);

describe('readScreen on arbitrary input', () => {
  it('never throws, returns a valid reading for the harness asked, and is deterministic', () => {
    fc.assert(
      fc.property(harnessArb, screenArb, (harness, screen) => {
        const reading = readScreen(harness, screen);
        expect(ScreenReading.parse(reading)).toEqual(reading);
        expect(reading.harness).toBe(harness);
        expect(readScreen(harness, screen)).toEqual(reading);
      }),
      { numRuns: 1500 },
    );
  });

  it('reads the same with LF and CRLF line ends', () => {
    fc.assert(
      fc.property(
        harnessArb,
        screenArb.map((s) => s.replace(/\r/g, '')),
        (harness, screen) => {
          expect(readScreen(harness, screen.replace(/\n/g, '\r\n'))).toEqual(readScreen(harness, screen));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('copes with huge rows', () => {
    fc.assert(
      fc.property(
        harnessArb,
        fc.array(piece, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 2_000, max: 40_000 }),
        (harness, parts, times) => {
          const row = parts.join('').replace(/[\r\n]/g, ' ').repeat(times).slice(0, 200_000);
          const screen = ['─'.repeat(80), `❯\u00a0${row}`, '─'.repeat(80), row, `> ${row}`].join('\r\n');
          expect(() => ScreenReading.parse(readScreen(harness, screen))).not.toThrow();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('detection and the screen command are total too', () => {
    fc.assert(
      fc.property(screenArb, (screen) => {
        const harness = detectHarnessFromScreen(screen);
        expect(harness === null || HARNESSES.includes(harness)).toBe(true);
        const printed = JSON.parse(screenCommand(screen)) as unknown;
        // The command prints the spec's four keys; the reason stays with the bridge.
        const { reason: _reason, ...read } = readScreen(harness ?? 'shell', screen);
        expect(ScreenReading.parse(printed)).toEqual(read);
      }),
      { numRuns: 500 },
    );
  });
});

describe('faint text is never a draft', () => {
  /** Printable text without escapes, paste tokens or line ends. */
  const plain = fc
    .string({
      unit: fc.constantFrom('a', 'b', 'z', 'Q', '0', '9', ' ', '.', ',', '/', '-', '?', '@', 'é', '中'),
      maxLength: 40,
    })
    .filter((s) => s.trim() !== '');

  it('on any screen drawn entirely faint, for every harness', () => {
    fc.assert(
      fc.property(harnessArb, screenArb, (harness, screen) => {
        const bare = screen.replace(/\u001b|\u009b/g, '');
        fc.pre(!/\[(?:Pasted text|Image) #\d/u.test(bare));
        const faint = bare
          .split(/\r\n|\n|\r/u)
          .map(dim)
          .join('\r\n');
        expect(readScreen(harness, faint).draft).toBeNull();
      }),
      { numRuns: 1000 },
    );
  });

  const claudeIdle = readFileSync(new URL('claude--fresh-idle.txt', FIXTURES), 'utf8');
  const ompIdle = readFileSync(new URL('omp--fresh-idle.txt', FIXTURES), 'utf8');
  /** Put `content` into the empty box of a real capture, in place of its prompt row. */
  const intoClaude = (content: string): string =>
    claudeIdle.replace(/^❯\u00a0\r?$/mu, (row) => `❯\u00a0${content}${row.endsWith('\r') ? '\r' : ''}`);
  const intoOmp = (content: string): string =>
    ompIdle.replace(/^(.*)╰─ +(.*─╯.*)$/mu, (_row, before: string, after: string) => `${before}╰─ ${content} ${after}`);

  it('in the real Claude box: a ghost alone is no draft, and typed text before it is', () => {
    expect(readScreen('claude', intoClaude('probe')).draft).toBe('probe'); // the prompt row was found
    fc.assert(
      fc.property(plain, plain, (typed, ghost) => {
        expect(readScreen('claude', intoClaude(dim(ghost))).draft).toBeNull();
        expect(readScreen('claude', intoClaude(typed + dim(ghost))).draft).toBe(typed.trim());
      }),
      { numRuns: 300 },
    );
  });

  it('in the real oh-my-pi composer: a ghost alone is no draft, and typed text before it is', () => {
    expect(readScreen('omp', intoOmp('probe')).draft).toBe('probe'); // the composer row was found
    fc.assert(
      fc.property(plain, plain, (typed, ghost) => {
        expect(readScreen('omp', intoOmp(dim(ghost))).draft).toBeNull();
        expect(readScreen('omp', intoOmp(typed + dim(ghost))).draft).toBe(typed.trim());
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseScreen', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '─', '❯', '中', '😀', '\n'), maxLength: 200 });

  it('gives back plain text unchanged, row by row, with nothing faint', () => {
    fc.assert(
      fc.property(text, (s) => {
        const lines = parseScreen(s);
        const joined = lines.map((l) => l.text).join('\n');
        expect(s.endsWith('\n') ? `${joined}\n` : joined).toBe(s);
        expect(lines.every((l) => l.dim.length === l.text.length && l.dim.every((d) => !d))).toBe(true);
      }),
    );
  });

  it('marks exactly the characters drawn between SGR 2 and SGR 0 as faint', () => {
    fc.assert(
      fc.property(text.map((s) => s.replace(/\n/g, '')), text.map((s) => s.replace(/\n/g, '')), (a, b) => {
        const [line] = parseScreen(`${a}${dim(b)}`);
        expect(line?.text).toBe(a + b);
        expect(line?.dim).toEqual([...Array<boolean>(a.length).fill(false), ...Array<boolean>(b.length).fill(true)]);
      }),
    );
  });
});
