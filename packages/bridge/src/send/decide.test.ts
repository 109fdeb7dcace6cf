import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dialog, Harness, PaneState, ScreenState, type ScreenReading } from '@collie/protocol';
import { captureCorpora, CaptureLabels } from '../harness/capture-labels';
import { readScreen } from '../harness/read-screen';
import { decide } from './decide';

/** Every agent's captured screens of a menu the user opened, of every release (labelled `menu`). */
function menuCaptures(): { name: string; harness: Harness; screen: string }[] {
  return captureCorpora(new URL('../harness/', import.meta.url)).flatMap(({ name: corpus, dir }) => {
    const labels = CaptureLabels.parse(JSON.parse(readFileSync(new URL('labels.json', dir), 'utf8')));
    return Object.entries(labels)
      .filter(([, l]) => l.dialog === 'menu')
      .map(([name, l]) => ({ name: `${corpus}/${name}`, harness: l.harness, screen: readFileSync(new URL(`${name}.txt`, dir), 'utf8') }));
  });
}

const reading = fc.record({
  harness: fc.constantFrom(...Harness.options),
  state: fc.constantFrom(...ScreenState.options),
  dialog: fc.option(fc.constantFrom(...Dialog.options), { nil: null }),
  draft: fc.option(fc.string({ minLength: 1 }), { nil: null }),
}) as fc.Arbitrary<ScreenReading>;

describe('the send decision', () => {
  it('for any reading: never types into a dialog, a running turn or over a draft', () => {
    fc.assert(
      fc.property(reading, fc.constantFrom(...Harness.options), fc.constantFrom(...PaneState.options), (r, harness, state) => {
        const d = decide({ harness, state, reading: r });
        if (d.action === 'type') {
          expect(r.dialog).toBeNull();
          expect(r.draft).toBeNull();
          expect(r.state === 'working' || r.state === 'blocked').toBe(false);
          expect(state === 'working' || state === 'blocked').toBe(false);
        }
        if (r.dialog !== null) expect(d).toEqual({ action: 'hold', reason: 'dialog' });
        if (d.action === 'type' && d.blind) expect(harness).toBe('shell');
      }),
    );
  });

  it('holds for a dialog before it looks at the box, and refuses a draft', () => {
    const base: ScreenReading = { harness: 'claude', state: 'idle', dialog: null, draft: null };
    expect(decide({ harness: 'claude', state: 'idle', reading: base })).toEqual({ action: 'type', blind: false });
    expect(decide({ harness: 'claude', state: 'idle', reading: { ...base, dialog: 'menu', draft: 'x' } })).toEqual({ action: 'hold', reason: 'dialog' });
    expect(decide({ harness: 'claude', state: 'idle', reading: { ...base, state: 'working', draft: 'x' } })).toEqual({ action: 'hold', reason: 'working' });
    expect(decide({ harness: 'claude', state: 'idle', reading: { ...base, draft: 'half a thought' } })).toEqual({ action: 'refuse', reason: 'draft' });
    expect(decide({ harness: 'shell', state: 'unknown', reading: { ...base, harness: 'shell', state: 'unknown' } })).toEqual({ action: 'type', blind: true });
    expect(decide(null)).toEqual({ action: 'refuse', reason: 'gone' });
    // An agent's screen its reader cannot read (mid-redraw, or unknown): waited on, never typed blind.
    expect(decide({ harness: 'claude', state: 'idle', reading: { ...base, state: 'unknown' } })).toEqual({ action: 'hold', reason: 'unreadable' });
    expect(decide({ harness: 'aider', state: 'unknown', reading: { ...base, harness: 'aider', state: 'unknown' } })).toEqual({ action: 'hold', reason: 'unreadable' });
    // An idle screen the engine has not confirmed as a turn's end is still a running turn.
    expect(decide({ harness: 'claude', state: 'working', reading: base })).toEqual({ action: 'hold', reason: 'working' });
    expect(decide({ harness: 'claude', state: 'blocked', reading: base })).toEqual({ action: 'hold', reason: 'working' });
  });

  it.each(menuCaptures().map((c) => [c.name, c] as const))('holds a send while %s shows a menu the user opened, as for a dialog', (_name, c) => {
    const reading = readScreen(c.harness, c.screen);
    expect(decide({ harness: c.harness, state: 'idle', reading })).toEqual({ action: 'hold', reason: 'dialog' });
  });
});
