import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Dialog, Harness, ScreenReading, ScreenState } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readCard } from './card';
import { detectHarnessFromScreen, readScreen } from './read-screen';

/**
 * Each agent folder's own captures of its real program (`<agent>/captures/`, with labels in the
 * fixture corpus's format), read as the labels say.
 */
const Label = z.object({ harness: Harness, state: ScreenState.nullable(), dialog: Dialog.nullable(), draft: z.boolean(), note: z.string().optional() });
const here = new URL('./', import.meta.url);
const folders = readdirSync(here).filter((d) => existsSync(new URL(`${d}/captures/labels.json`, here)));

describe.each(folders)('%s captures', (agent) => {
  const dir = new URL(`${agent}/captures/`, here);
  const labels = z.record(z.string(), Label).parse(JSON.parse(readFileSync(new URL('labels.json', dir), 'utf8')));

  it('labels every capture and captures every label', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.txt')).map((f) => f.slice(0, -4)).sort();
    expect(Object.keys(labels).sort()).toEqual(files);
  });

  describe.each(Object.entries(labels))('%s', (name, label) => {
    const text = readFileSync(new URL(`${name}.txt`, dir), 'utf8');
    const reading = readScreen(label.harness, text);
    it(`reads ${label.state ?? 'not blocked'}, dialog ${label.dialog ?? 'none'}, ${label.draft ? 'a draft' : 'no draft'}`, () => {
      expect(ScreenReading.parse(reading)).toEqual(reading);
      expect(detectHarnessFromScreen(text)).toBe(label.harness);
      if (label.state !== null) expect(reading.state).toBe(label.state);
      else expect(reading.state).not.toBe('blocked');
      expect(reading.dialog).toBe(label.dialog);
      expect(reading.draft !== null).toBe(label.draft);
    });
    if (label.dialog !== null && label.dialog !== 'menu') {
      it('shows an answerable card with its options', () => {
        const card = readCard(label.harness, text);
        expect(card?.kind).toBe(label.dialog);
        expect(card?.options.length).toBeGreaterThan(0);
        expect(card?.answerable).toBe(true);
      });
    }
  });
});

describe('exact drafts and cards read from the captures', () => {
  const at = (agent: string, name: string) => readFileSync(new URL(`${agent}/captures/${name}.txt`, here), 'utf8');
  it.each([
    ['opencode', 'opencode--draft-start', 'a draft on the start screen'],
    ['opencode', 'opencode--working-draft', 'typed while it works'],
    ['opencode', 'opencode--draft-wrapped', 'a longer draft that goes on and on so that the prompt box has to wrap it onto a second row and maybe a third one too'],
    ['pi', 'pi--working-draft', 'typed while working'],
  ] as const)('%s %s', (agent, name, draft) => {
    expect(readScreen(agent, at(agent, name)).draft).toBe(draft);
  });

  it('OpenCode permission: the buttons, the focus that moves, one signature', () => {
    const first = readCard('opencode', at('opencode', 'opencode--permission-bash'));
    const moved = readCard('opencode', at('opencode', 'opencode--permission-bash-moved'));
    expect(first?.options.map((o) => [o.label, o.focused])).toEqual([['Allow once', true], ['Allow always', false], ['Reject', false]]);
    expect(moved?.options.map((o) => o.focused)).toEqual([false, true, false]);
    expect(first).toMatchObject({ title: 'Shell command', body: ['$ touch made-by-bash'] });
    expect(moved?.signature).toBe(first?.signature);
  });

  it('OpenCode question and pi permission gate', () => {
    const q = readCard('opencode', at('opencode', 'opencode--question'));
    expect(q?.options.map((o) => o.label)).toEqual(['Black', 'Sable', 'Type your own answer']);
    expect(q?.question).toBe('Which colour should the collie be?');
    const gate = readCard('pi', at('pi', 'pi--permission-gate'));
    expect(gate).toMatchObject({ kind: 'permission', title: 'Dangerous command', body: ['rm -rf build'], question: 'Allow?' });
    expect(gate?.options.map((o) => [o.label, o.focused])).toEqual([['Yes', true], ['No', false]]);
  });
});
