import { readdirSync, readFileSync } from 'node:fs';
import { ScreenReading } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { captureCorpora, CaptureLabels } from './capture-labels';
import { answerPlan, readCard } from './card';
import { detectHarnessFromScreen, readScreen } from './read-screen';

/**
 * The one fixture table: every agent's corpus of real screens, `harness/<agent>/captures/` (and each
 * other release's `captures/<version>/`) with its `labels.json` (written by `npm run capture -- <agent>`). Each screen is read by its
 * agent's reader as labelled (state, dialog, draft and its exact text) and never detected as
 * another agent; each open dialog becomes a card with its labelled options, answerable (unless
 * its label says it is answered at the terminal) with a key plan for every option that asks for
 * no words; a menu the user opened is never answerable; a screen without a dialog has no card.
 */
const corpora = captureCorpora(new URL('./', import.meta.url)).map((c) => [c.name, c] as const);

describe.each(corpora)('the %s captures', (_name, { dir }) => {
  const labels = CaptureLabels.parse(JSON.parse(readFileSync(new URL('labels.json', dir), 'utf8')));

  it('labels every capture and captures every label', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.txt')).map((f) => f.slice(0, -'.txt'.length));
    expect(Object.keys(labels).sort()).toEqual(files.sort());
  });

  describe.each(Object.entries(labels))('%s', (name, label) => {
    const screen = readFileSync(new URL(`${name}.txt`, dir), 'utf8');
    const reading = readScreen(label.harness, screen);
    it(`reads ${label.state}, dialog ${label.dialog ?? 'none'}, ${label.draft ? 'a draft' : 'no draft'}, and is never taken for another agent`, () => {
      expect(ScreenReading.parse(reading)).toEqual(reading);
      expect({ state: reading.state, dialog: reading.dialog, draft: reading.draft !== null }).toEqual({ state: label.state, dialog: label.dialog, draft: label.draft });
      if (label.draftText !== undefined) expect(reading.draft).toBe(label.draftText);
      // The bridge knows the agent from the pane's processes; the screen may say too little to tell.
      expect([label.harness, null]).toContain(detectHarnessFromScreen(screen));
    });
    if (label.dialog === null) {
      it('shows no card', () => expect(readCard(label.harness, screen)).toBeNull());
    } else if (label.dialog === 'menu') {
      it('shows the menu, never answered from the phone', () => {
        const card = readCard(label.harness, screen);
        if (card) expect({ kind: card.kind, answerable: card.answerable }).toEqual({ kind: 'menu', answerable: false });
      });
    } else {
      it(`shows the dialog as a card${label.answerable === false ? ' answered at the terminal for now' : ' with a key plan for every option'}`, () => {
        const card = readCard(label.harness, screen);
        expect(card?.kind).toBe(label.dialog);
        expect(`${card?.title ?? ''}${card?.question ?? ''}`).not.toBe('');
        if (label.options) expect(card?.options.map((o) => o.label)).toEqual(label.options);
        expect(card?.answerable).toBe(label.answerable ?? true);
        if (!card?.answerable) return;
        // Options that ask for typed words go through `textAnswerPlan` (or the terminal).
        for (const o of card.options.filter((x) => !x.freeText)) {
          const plan = answerPlan(label.harness, card, o.checked === null ? { option: o.n } : { toggle: [o.n] });
          expect(plan.ok, `${o.label}: ${plan.ok ? '' : plan.reason}`).toBe(true);
        }
      });
    }
  });
});
