import { readFileSync } from 'node:fs';
import type { Harness } from '@collie/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { captureCorpora, CaptureLabels, type CaptureLabel } from './capture-labels';
import { readScreen } from './read-screen';

/**
 * fast-check over each reader with menu and notice rows mixed into its real screens (the
 * captures of `harness/<agent>/captures/`):
 *
 * - a menu the user opened stays a `menu` over an idle or working agent, with no draft, whatever
 *   the transcript above it holds (notices, other screens' transcript rows);
 * - an agent's dialog stays the same dialog, blocked, when notices, banners and tips are drawn
 *   above it, and (Gemini CLI pins its update box there) under it;
 * - an idle screen with notices stays idle with the same draft.
 *
 * Rows are only put where the agent draws such things: into the top of the screen the reading
 * does not rest on (the rows that can scroll away without changing it), and under the dialog.
 */
const all = captureCorpora(new URL('./', import.meta.url));
const corpora = [...new Set(all.map((c) => c.agent))];

const E = '\u001b';
/** Notices, banners and tips as the agents draw them (words seen on their screens). */
const NOTICES = [
  `${E}[33m⚠ Update available! 0.55.0 -> 0.61.0${E}[39m`,
  '✨ Update available! 0.162.0 -> 0.171.0',
  'Run npm install -g @openai/codex to update.',
  ` ${E}[2mTip: Use /compact to free up context${E}[0m`,
  `${E}[33m Warning: tmux extended-keys is off. Modified Enter keys may not work.${E}[39m`,
  'ℹ Gemini CLI update available! 0.55.0 → 0.61.0',
  'Installed with npm. Attempting to automatically update now...',
  ' Update Available  New version 0.74.0 is available. Run: npm install -g @mariozechner/pi-coding-agent',
  '✗ Auto-update failed · Try claude doctor or npm i -g @anthropic-ai/claude-code',
  '',
];
/** A notice in a rounded box, one row per line of words, `width` columns wide. */
const NOTICE_BOX = (words: readonly string[], width: number): string[] => {
  const plain = words.map((w) => w.replace(/\u001b\[[0-9;]*m/gu, ''));
  const inner = Math.max(width - 2, ...plain.map((w) => w.length + 2));
  return [`╭${'─'.repeat(inner)}╮`, ...plain.map((w) => `│ ${w.padEnd(inner - 1)}│`), `╰${'─'.repeat(inner)}╯`];
};

interface Screen {
  name: string;
  label: CaptureLabel;
  rows: string[];
  /** How many top rows can go without changing the reading: the transcript the reading does not rest on. */
  free: number;
}

/** Every captured screen of `harness`, of every release. */
function load(harness: Harness): Screen[] {
  return all
    .filter((c) => c.agent === harness)
    .flatMap(({ name: corpus, dir }) => {
      const labels = CaptureLabels.parse(JSON.parse(readFileSync(new URL('labels.json', dir), 'utf8')));
      return Object.entries(labels).map(([file, label]) => {
        const rows = readFileSync(new URL(`${file}.txt`, dir), 'utf8').replace(/\r\n/gu, '\n').split('\n');
        const whole = JSON.stringify(readScreen(harness, rows.join('\n')));
        let free = 0;
        while (free < rows.length && JSON.stringify(readScreen(harness, rows.slice(free + 1).join('\n'))) === whole) free++;
        return { name: `${corpus}/${file}`, label, rows, free };
      });
    });
}

/**
 * The screen with its top `cut` free rows replaced by `put`, the rest kept as it is. Each row
 * put ends its styling, as tmux does before the next row it draws, and a blank row ends the
 * block put, as agents end a block of their transcript.
 */
function mix(s: Screen, cut: number, put: readonly string[]): string {
  const block = put.length > 0 ? [...put.map((r) => `${r}${E}[0m`), ''] : [];
  return [...block, ...s.rows.slice(cut)].join('\n');
}

describe.each(corpora)('the %s reader with menus and notices mixed into its real screens', (harness) => {
  const screens = load(harness);
  const transcript = screens.filter((s) => s.label.dialog === null).flatMap((s) => s.rows.slice(0, s.free));
  const filler = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...NOTICES) },
    { weight: 2, arbitrary: transcript.length > 0 ? fc.constantFrom(...transcript) : fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom(...NOTICES).map((w) => NOTICE_BOX([w], 60).join('\n')) },
  );
  const rowsArb = fc.array(filler, { maxLength: 8 }).map((parts) => parts.join('\n').split('\n'));
  const menus = screens.filter((s) => s.label.dialog === 'menu');
  const dialogs = screens.filter((s) => s.label.state === 'blocked');
  const idle = screens.filter((s) => s.label.state === 'idle' && s.label.dialog === null && s.free > 0);

  it.runIf(menus.length > 0)('reads a menu as a menu over an idle or working agent, its rows never a draft, whatever is drawn above it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...menus), fc.nat(), rowsArb, (s, n, put) => {
        const reading = readScreen(harness, mix(s, n % (s.free + 1), put));
        // The only draft a menu has is the box's own text as labelled (Claude's `/…` filter).
        expect({ dialog: reading.dialog, draft: reading.draft }, s.name).toEqual({ dialog: 'menu', draft: s.label.draft ? (s.label.draftText ?? null) : null });
        expect(['idle', 'working']).toContain(reading.state);
      }),
      { numRuns: 400 },
    );
  });

  it.runIf(dialogs.length > 0)('reads a dialog the same with notices, banners and tips above it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...dialogs), fc.nat(), rowsArb, (s, n, put) => {
        const reading = readScreen(harness, mix(s, n % (s.free + 1), put));
        expect({ state: reading.state, dialog: reading.dialog }, s.name).toEqual({ state: 'blocked', dialog: s.label.dialog });
      }),
      { numRuns: 400 },
    );
  });

  it.runIf(idle.length > 0)('reads an idle screen the same, draft and all, with notices above it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...idle), fc.nat(), rowsArb, (s, n, put) => {
        const whole = readScreen(harness, s.rows.join('\n'));
        const reading = readScreen(harness, mix(s, n % (s.free + 1), put.filter((r) => !r.includes('│') && !/^[╭╰]/u.test(r))));
        expect({ dialog: reading.dialog, draft: reading.draft }, s.name).toEqual({ dialog: whole.dialog, draft: whole.draft });
        expect(['idle', 'working']).toContain(reading.state);
      }),
      { numRuns: 300 },
    );
  });
});

describe('Gemini CLI with its update box pinned under a dialog (0.55 draws one under "Allow execution of [Shell]?")', () => {
  const dialogs = load('gemini').filter((s) => s.label.state === 'blocked');
  it('still reads the dialog, blocked', () => {
    fc.assert(
      fc.property(fc.constantFrom(...dialogs), fc.subarray(NOTICES.slice(0, -1), { minLength: 1, maxLength: 3 }), fc.integer({ min: 40, max: 120 }), (s, words, width) => {
        const end = s.rows.findLastIndex((r) => r.trim() !== '');
        const box = NOTICE_BOX(words, width);
        // Under the dialog; a full screen scrolls up by what does not fit (only rows the reading does not rest on).
        const drawn = [...s.rows.slice(0, end + 1), ...box];
        const scroll = Math.max(0, drawn.length - s.rows.length);
        fc.pre(scroll <= s.free);
        const rows = drawn.slice(scroll);
        const reading = readScreen('gemini', rows.join('\n'));
        expect({ state: reading.state, dialog: reading.dialog }, s.name).toEqual({ state: 'blocked', dialog: s.label.dialog });
      }),
      { numRuns: 300 },
    );
  });
});
