import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScreenReading } from '@collie/protocol';
import { IDLE_CONFIRM_MS, seen, step, type EngineState } from './state-engine';

const r = (state: ScreenReading['state']): ScreenReading => ({ harness: 'claude', state, dialog: null, draft: null });

describe('state engine', () => {
  it('a turn that ends becomes done once the idle screen holds, and seen makes it idle', () => {
    let s = step(undefined, r('working'), 0).next;
    expect(s.state).toBe('working');
    const first = step(s, r('idle'), 1000);
    expect(first.next.state).toBe('working');
    expect(first.recheckAt).toBe(1000 + IDLE_CONFIRM_MS);
    s = step(first.next, r('idle'), 1000 + IDLE_CONFIRM_MS).next;
    expect(s).toEqual({ state: 'done', since: 1000 + IDLE_CONFIRM_MS, idleSeenAt: null });
    expect(step(s, r('idle'), 5000).next.state).toBe('done');
    expect(seen(s, 6000)).toEqual({ state: 'idle', since: 6000, idleSeenAt: null });
  });

  it('a spinner-less frame between two working frames is not a turn end', () => {
    let s = step(undefined, r('working'), 0).next;
    s = step(s, r('idle'), 100).next;
    s = step(s, r('working'), 150).next;
    expect(s).toEqual({ state: 'working', since: 0, idleSeenAt: null });
  });

  it('blocked follows the dialog at once, and a dialog closed without a turn is plain idle', () => {
    let s = step(undefined, r('idle'), 0).next;
    s = step(s, r('blocked'), 10).next;
    expect(s.state).toBe('blocked');
    s = step(s, r('idle'), 20).next;
    s = step(s, r('idle'), 20 + IDLE_CONFIRM_MS).next;
    expect(s.state).toBe('idle');
  });

  it('keeps `since` while the state holds', () => {
    const s = step(step(undefined, r('working'), 5).next, r('working'), 900).next;
    expect(s.since).toBe(5);
  });

  it('for any sequence of readings: done only after working, since never in the future', () => {
    const reading = fc.constantFrom(...(['idle', 'working', 'blocked', 'unknown'] as const)).map(r);
    fc.assert(
      fc.property(fc.array(fc.tuple(reading, fc.integer({ min: 0, max: 1000 })), { maxLength: 60 }), (seq) => {
        let s: EngineState | undefined;
        let t = 0;
        let sawWorking = false;
        for (const [reading, dt] of seq) {
          t += dt;
          const prev: EngineState | undefined = s;
          s = step(s, reading, t).next;
          if (reading.state === 'working') sawWorking = true;
          if (s.state === 'done') expect(sawWorking).toBe(true);
          if (s.state === 'done' && prev?.state !== 'done') expect(prev?.state).toBe('working');
          expect(s.since).toBeLessThanOrEqual(t);
          if (reading.state !== 'idle') expect(s.state).toBe(reading.state);
        }
      }),
    );
  });
});
