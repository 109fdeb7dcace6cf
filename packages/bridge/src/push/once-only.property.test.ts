import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PUSH_CAPS } from '@collie/protocol';
import { tempDir } from '@collie/testkit';
import { PushDecider } from '../durable/pushes';

const MINUTE = 60_000;

type Op = { op: 'ask'; agent: string; pane: string; q: number; gap: number } | { op: 'restart' };

describe('the once-only rule and the caps, over any sequence of questions and restarts', () => {
  it('no question pushes twice, even across restarts; within a run no cap window overflows; a fresh question under the caps pushes', async () => {
    await using dir = await tempDir('collie-once');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            { weight: 12, arbitrary: fc.record({ op: fc.constant('ask' as const), agent: fc.constantFrom('claude', 'codex'), pane: fc.constantFrom('p1', 'p2', 'p3'), q: fc.integer({ min: 0, max: 40 }), gap: fc.integer({ min: 0, max: 5 * MINUTE }) }) },
            { weight: 1, arbitrary: fc.constant({ op: 'restart' as const }) },
          ),
          { maxLength: 120 },
        ),
        async (ops: Op[]) => {
          const file = join(dir.path, `pushed-${run++}.json`);
          let decider = await PushDecider.openFile(file, 'm');
          let now = 0;
          const everPushed = new Set<string>();
          let thisRun: { at: number; agent: string; pane: string }[] = [];
          let silencedUntil = new Map<string, number>();
          for (const o of ops) {
            if (o.op === 'restart') {
              await decider.flush();
              decider = await PushDecider.openFile(file, 'm');
              thisRun = [];
              silencedUntil = new Map();
              continue;
            }
            now += o.gap;
            const key = `${o.agent}/${o.pane}/${o.q}`;
            const d = decider.once(o.agent, `q${o.pane}:${o.q}`, o.pane, now);
            if (everPushed.has(key)) {
              expect(d).toBeNull();
              continue;
            }
            // A key never decided before always gets a decision.
            expect(d).not.toBeNull();
            everPushed.add(key);
            const inMinute = thisRun.filter((x) => x.agent === o.agent && x.at > now - MINUTE);
            const paneMinute = inMinute.filter((x) => x.pane === o.pane).length;
            const silenced = (silencedUntil.get(o.agent) ?? -1) > now;
            if (d?.push === 'question') {
              expect(silenced).toBe(false);
              expect(paneMinute).toBeLessThan(PUSH_CAPS.perPaneMinute);
              expect(inMinute.length).toBeLessThan(PUSH_CAPS.perAgentMinute);
              thisRun.push({ at: now, agent: o.agent, pane: o.pane });
            } else if (d?.push === 'flood') {
              silencedUntil.set(o.agent, now + PUSH_CAPS.silenceMs);
            } else {
              expect(silenced || paneMinute >= PUSH_CAPS.perPaneMinute || inMinute.length >= PUSH_CAPS.perAgentMinute).toBe(true);
            }
          }
          await decider.flush();
        },
      ),
      { numRuns: 150 },
    );
  });
});
