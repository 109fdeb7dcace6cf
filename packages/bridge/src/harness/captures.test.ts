import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { ScreenReading } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { CaptureLabels } from './capture-labels';
import { readCard } from './card';
import { readScreen } from './read-screen';

/**
 * Every agent's own corpus of real screens, `harness/<agent>/captures/` with its `labels.json`
 * (written by `npm run capture -- <agent>`): each screen read as labelled.
 */
const HARNESS = new URL('./', import.meta.url);
const corpora = readdirSync(HARNESS, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(new URL(`${d.name}/captures/labels.json`, HARNESS)))
  .map((d) => d.name);

describe.each(corpora)('the %s captures', (agent) => {
  const dir = new URL(`${agent}/captures/`, HARNESS);
  const labels = CaptureLabels.parse(JSON.parse(readFileSync(new URL('labels.json', dir), 'utf8')));

  it('labels every capture and captures every label', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.txt')).map((f) => f.slice(0, -'.txt'.length));
    expect(Object.keys(labels).sort()).toEqual(files.sort());
  });

  describe.each(Object.entries(labels))('%s', (name, label) => {
    const screen = readFileSync(new URL(`${name}.txt`, dir), 'utf8');
    const reading = readScreen(label.harness, screen);
    it(`reads ${label.state}, dialog ${label.dialog ?? 'none'}, ${label.draft ? 'a draft' : 'no draft'}`, () => {
      expect(ScreenReading.parse(reading)).toEqual(reading);
      expect({ state: reading.state, dialog: reading.dialog, draft: reading.draft !== null }).toEqual({ state: label.state, dialog: label.dialog, draft: label.draft });
    });
    if (label.options) {
      it('makes a card with its options', () => {
        expect(readCard(label.harness, screen)?.options.map((o) => o.label)).toEqual(label.options);
      });
    }
  });
});
