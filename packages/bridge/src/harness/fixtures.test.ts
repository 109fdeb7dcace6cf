import { readdirSync, readFileSync } from 'node:fs';
import { Dialog, Harness, ScreenReading, ScreenState } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { detectHarnessFromScreen, readScreen, screenCommand } from './index';

// The golden corpus of real screens: packages/testkit/corpus/panes (its README says how each was captured).
const FIXTURES = new URL('../../../testkit/corpus/panes/', import.meta.url);

const Label = z.object({
  harness: Harness,
  state: ScreenState.nullable(),
  dialog: Dialog.nullable(),
  draft: z.boolean(),
  note: z.string().optional(),
});
const labels = z.record(z.string(), Label).parse(JSON.parse(readFileSync(new URL('labels.json', FIXTURES), 'utf8')));
const screen = (name: string): string => readFileSync(new URL(`${name}.txt`, FIXTURES), 'utf8');

describe('the fixture corpus', () => {
  it('labels every capture and captures every label', () => {
    const files = readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.txt') && f.includes('--'))
      .map((f) => f.slice(0, -'.txt'.length))
      .sort();
    expect(Object.keys(labels).sort()).toEqual(files);
  });
});

describe.each(Object.entries(labels))('%s', (name, label) => {
  const text = screen(name);
  const reading = readScreen(label.harness, text);

  it('is a valid reading', () => {
    expect(ScreenReading.parse(reading)).toEqual(reading);
    expect(reading.harness).toBe(label.harness);
  });

  it(`detects ${label.harness}`, () => {
    expect(detectHarnessFromScreen(text)).toBe(label.harness);
  });

  if (label.state !== null) {
    it(`is ${label.state}`, () => {
      expect(reading.state).toBe(label.state);
    });
  } else {
    // The label leaves the state open; with no dialog on screen it still cannot be blocked.
    it('is not blocked (state not asserted by the label)', () => {
      expect(reading.state).not.toBe('blocked');
    });
  }

  it(`shows dialog ${label.dialog ?? 'none'}`, () => {
    expect(reading.dialog).toBe(label.dialog);
  });

  it(label.draft ? 'holds a draft' : 'holds no draft', () => {
    expect(reading.draft !== null).toBe(label.draft);
  });
});

describe('exact drafts read from the corpus', () => {
  const cases: Array<[string, string]> = [
    [
      'claude--draft-wrapped',
      'this stranded draft is long enough that Claude soft-wraps it onto several lines inside the input box ' +
        'which is exactly the case that used to stay visible',
    ],
    ['claude--draft-footer-single', 'remember to update the changelog before tagging'],
    ['claude--draft-paste-placeholder', '[Pasted text #3 +3 lines]'],
    ['claude--draft-paste-split-partial', '[Pasted text #3 +5 lines] TAIL-ONE-alpha-bravo TAIL-TWO-charlie-delta'],
    [
      'claude--draft-paste-split-tail',
      '[Pasted text #3 +5 lines] TAIL-ONE-alpha-bravo TAIL-TWO-charlie-delta TAIL-THREE-echo-foxtrot',
    ],
    ['claude--ghost-typed-over', 'hello real draft text'],
    ['claude--send-inflight', '/rename'],
    ['omp--draft-single', 'list the files in this repo'],
    ['omp--slash-palette', '/'],
    ['omp--slash-palette--filtered', '/new'],
  ];
  it.each(cases)('%s', (name, draft) => {
    const label = labels[name];
    expect(label).toBeDefined();
    expect(readScreen(label?.harness ?? 'shell', screen(name)).draft).toBe(draft);
  });
});

describe('screenCommand on the corpus', () => {
  it('prints the detected reading as one JSON line', () => {
    expect(screenCommand(screen('claude--permission-edit'))).toBe(
      '{"harness":"claude","state":"blocked","dialog":"permission","draft":null}',
    );
    expect(screenCommand(screen('omp--draft-single'))).toBe(
      '{"harness":"omp","state":"idle","dialog":null,"draft":"list the files in this repo"}',
    );
  });

  it('reads with the harness it is given', () => {
    expect(JSON.parse(screenCommand(screen('claude--working'), 'shell'))).toEqual({
      harness: 'shell',
      state: 'unknown',
      dialog: null,
      draft: null,
    });
  });

  it('falls back to shell when nothing agent-like is on screen', () => {
    expect(screenCommand('$ ls\r\nREADME.md  src\r\n$ ')).toBe(
      '{"harness":"shell","state":"unknown","dialog":null,"draft":null}',
    );
  });
});
