import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PUSH_CAPS } from '@collie/protocol';
import { PushCaps, type CapDecision } from './push-caps';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Step {
  at: number;
  agent: string;
  pane: string;
  d: CapDecision;
}

describe('push caps, for any sequence of questions over time', () => {
  it('no window exceeds its cap, and a question that does not push had a full window or a silence', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ gap: fc.oneof(fc.integer({ min: 0, max: 3_000 }), fc.integer({ min: 0, max: 10 * MINUTE })), agent: fc.constantFrom('a', 'b'), pane: fc.constantFrom('p1', 'p2', 'p3', 'p4') }), { maxLength: 400 }),
        (qs) => {
          const caps = new PushCaps();
          let now = 0;
          const log: Step[] = [];
          for (const q of qs) {
            now += q.gap;
            log.push({ at: now, agent: q.agent, pane: q.pane, d: caps.decide(q.agent, q.pane, now) });
          }
          const pushed = (agent: string, from: number, to: number, pane?: string) =>
            log.filter((s) => s.agent === agent && s.d.push === 'question' && s.at > from && s.at <= to && (pane === undefined || s.pane === pane)).length;
          const lastFlood = (agent: string, before: number) => log.filter((s) => s.agent === agent && s.d.push === 'flood' && s.at <= before).at(-1)?.at ?? null;
          log.forEach((s, i) => {
            const earlier = log.slice(0, i);
            const prior = (from: number, pane?: string) =>
              earlier.filter((x) => x.agent === s.agent && x.d.push === 'question' && x.at > from && (pane === undefined || x.pane === pane)).length;
            const flood = earlier.filter((x) => x.agent === s.agent && x.d.push === 'flood').at(-1)?.at ?? null;
            const silenced = flood !== null && s.at < flood + PUSH_CAPS.silenceMs;
            // Pushes since the last flood count toward the hour (the flood starts a new hour).
            const hourFrom = Math.max(s.at - HOUR, flood ?? -Infinity);
            switch (s.d.push) {
              case 'question':
                expect(silenced).toBe(false);
                expect(pushed(s.agent, s.at - MINUTE, s.at, s.pane)).toBeLessThanOrEqual(PUSH_CAPS.perPaneMinute);
                expect(pushed(s.agent, s.at - MINUTE, s.at)).toBeLessThanOrEqual(PUSH_CAPS.perAgentMinute);
                expect(pushed(s.agent, hourFrom, s.at)).toBeLessThanOrEqual(PUSH_CAPS.perAgentHour);
                break;
              case 'flood':
                expect(silenced).toBe(false);
                expect(prior(hourFrom)).toBe(PUSH_CAPS.perAgentHour);
                break;
              case 'none': {
                // Nothing that should push is lost: one of the windows was full, or the agent was silenced.
                const full = silenced || prior(s.at - MINUTE) >= PUSH_CAPS.perAgentMinute || prior(s.at - MINUTE, s.pane) >= PUSH_CAPS.perPaneMinute;
                expect(full).toBe(true);
                expect(s.d.why === 'silenced').toBe(silenced);
                break;
              }
            }
            if (s.d.push === 'flood') expect(lastFlood(s.agent, s.at - 1) === null || s.at - lastFlood(s.agent, s.at - 1)! >= PUSH_CAPS.silenceMs).toBe(true);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the 31st push in an hour is the flood push, then an hour of silence', () => {
    const caps = new PushCaps();
    const out: string[] = [];
    // 31 questions, 90 s apart, each in its own pane: under the minute caps, over the hour's.
    for (let i = 0; i < 31; i++) out.push(caps.decide('a', `p${i}`, i * 1.5 * MINUTE).push);
    expect(out.slice(0, 30).every((p) => p === 'question')).toBe(true);
    expect(out[30]).toBe('flood');
    expect(caps.decide('a', 'q', 30 * 1.5 * MINUTE + HOUR - 1)).toEqual({ push: 'none', why: 'silenced' });
    expect(caps.decide('b', 'q', 30 * 1.5 * MINUTE + 1).push).toBe('question');
    expect(caps.decide('a', 'q', 30 * 1.5 * MINUTE + HOUR).push).toBe('question');
  });
});
