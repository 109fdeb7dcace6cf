import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUSH_CAPS } from '@collie/protocol';
import { tempDir } from '@collie/testkit';
import { PushDecider } from '../durable/pushes';
import { makeRedactor } from '../redact';
import { ManualClock } from './manual-clock';
import { PanePushes, type PaneShow } from './pane-pushes';
import { blocked, testPane } from './test-pane';

const DELAY = 30_000;

async function planner(file: string, o: { looking?: () => boolean; delay?: number; leave?: (id: string) => boolean } = {}) {
  const clock = new ClockLog();
  const decider = await PushDecider.openFile(file, 'testbox');
  const p = new PanePushes({
    delayMs: o.delay ?? DELAY,
    reminderMs: 10 * 60_000,
    now: () => clock.now,
    timer: clock.timer,
    gate: (a, q, pane, now) => decider.once(a, q, pane, now),
    looking: o.looking ?? (() => false),
    mask: makeRedactor(true),
    show: (s) => clock.shown.push(s),
    flood: () => clock.floods++,
    withdraw: (tag) => clock.withdrawn.push(tag),
    ...(o.leave ? { leave: o.leave } : {}),
  });
  return { clock, p, decider };
}

/**
 * A temp dir for push records whose removal first waits for every decider opened in it to
 * finish writing (a burst of questions queues many writes; removing the dir under them fails).
 */
async function pushDir() {
  const dir = await tempDir('collie-push');
  const deciders: PushDecider[] = [];
  return {
    async open(name: string, o: Parameters<typeof planner>[1] = {}) {
      const plan = await planner(join(dir.path, name), o);
      deciders.push(plan.decider);
      return plan;
    },
    async [Symbol.asyncDispose]() {
      for (const d of deciders) await d.flush();
      await dir.remove();
    },
  };
}

class ClockLog extends ManualClock {
  shown: PaneShow[] = [];
  withdrawn: string[] = [];
  floods = 0;
}

describe('pane pushes', () => {
  it('a pane left to another machine pushes nothing; handed over, a shown push is withdrawn; taken back, it waits the debounce and pushes once', async () => {
    await using dir = await pushDir();
    let leave = true;
    const { clock, p } = await dir.open('pushed.json', { leave: () => leave });
    p.update(blocked('t:%1', 'rm -rf ./build'));
    clock.advance(DELAY * 30);
    expect(clock.shown).toEqual([]);
    // Taken back (the link went down): the debounce from now, then one push; no reminder while it is ours… until it is not.
    leave = false;
    p.recheckAll();
    clock.advance(DELAY - 1);
    expect(clock.shown).toEqual([]);
    clock.advance(1);
    expect(clock.shown).toHaveLength(1);
    // Handed over again (the link came up): withdrawn at once, no reminder from here.
    leave = true;
    p.recheckAll();
    expect(clock.withdrawn).toEqual([clock.shown[0]!.tag]);
    clock.advance(60 * 60_000);
    expect(clock.shown).toHaveLength(1);
    // Taken back once more: this machine withdrew it, so it shows it again (once-only counts it as pushed).
    leave = false;
    p.recheckAll();
    clock.advance(DELAY);
    expect(clock.shown).toHaveLength(2);
    expect(clock.shown[1]!.tag).toBe(clock.shown[0]!.tag);
    // Answered: withdrawn.
    p.update(testPane({ id: 't:%1', state: 'working' }));
    expect(clock.withdrawn).toHaveLength(2);
  });

  it('push after the 30 s debounce, with the question\'s words, once; withdrawn when answered', async () => {
    await using dir = await pushDir();
    const { clock, p } = await dir.open('pushed.json');
    p.update(blocked('t:%1', 'rm -rf ./build'));
    clock.advance(DELAY - 1);
    expect(clock.shown).toEqual([]);
    clock.advance(1);
    expect(clock.shown).toHaveLength(1);
    expect(clock.shown[0]).toMatchObject({ kind: 'blocked', title: 'Permission needed in collie#main', body: 'Bash: Run the scripted command · rm -rf ./build\nDo you want to proceed?', url: '#/pane/t%3A%251' });
    // The same question redrawn pushes nothing more.
    p.update(blocked('t:%1', 'rm -rf ./build'));
    clock.advance(DELAY * 2);
    expect(clock.shown).toHaveLength(1);
    p.update(testPane({ id: 't:%1', state: 'working' }));
    expect(clock.withdrawn).toEqual([clock.shown[0]!.tag]);
  });

  it('a dialog answered within the debounce pushes nothing and withdraws nothing', async () => {
    await using dir = await pushDir();
    const { clock, p } = await dir.open('pushed.json');
    p.update(blocked('t:%1', 'ls'));
    clock.advance(DELAY - 1);
    p.update(testPane({ id: 't:%1', state: 'working' }));
    clock.advance(DELAY * 40);
    expect(clock.shown).toEqual([]);
    expect(clock.withdrawn).toEqual([]);
  });

  it('a secret in the command is masked in the push', async () => {
    await using dir = await pushDir();
    const { clock, p } = await dir.open('pushed.json');
    p.update(blocked('t:%1', 'curl -H "Authorization: Bearer eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl" x'));
    clock.advance(DELAY);
    expect(clock.shown[0]!.body).not.toContain('eyJzdWIiOi');
    expect(clock.shown[0]!.body).toContain('Bash: Run the scripted command · curl');
  });

  it('one reminder for a question still open 10 minutes after its push, with the same tag', async () => {
    await using dir = await pushDir();
    const { clock, p } = await dir.open('pushed.json');
    p.update(blocked('t:%1', 'make'));
    clock.advance(DELAY + 10 * 60_000);
    expect(clock.shown.map((s) => s.kind)).toEqual(['blocked', 'reminder']);
    expect(clock.shown[1]!.tag).toBe(clock.shown[0]!.tag);
    clock.advance(60 * 60_000);
    expect(clock.shown).toHaveLength(2);
  });

  it('no push while someone looks; the reminder pushes it once they have gone', async () => {
    await using dir = await pushDir();
    let looking = true;
    const { clock, p } = await dir.open('pushed.json', { looking: () => looking });
    p.update(blocked('t:%1', 'make'));
    clock.advance(DELAY + 60_000);
    expect(clock.shown).toEqual([]);
    looking = false;
    clock.advance(10 * 60_000);
    expect(clock.shown.map((s) => s.kind)).toEqual(['blocked']);
  });

  it('a question asked again after a restart shows and does not push again; its answer still withdraws', async () => {
    await using dir = await pushDir();
    const first = await dir.open('pushed.json');
    first.p.update(blocked('t:%1', 'make'));
    first.clock.advance(DELAY);
    expect(first.clock.shown).toHaveLength(1);
    await first.decider.flush();
    first.p.stop();
    const again = await dir.open('pushed.json');
    again.p.update(blocked('t:%1', 'make'));
    again.clock.advance(DELAY * 3);
    expect(again.clock.shown).toEqual([]);
    again.p.update(testPane({ id: 't:%1', state: 'idle' }));
    expect(again.clock.withdrawn).toEqual([first.clock.shown[0]!.tag]);
  });

  it('caps hold under a burst of 100 questions: 3 a minute in one pane, 10 a minute per agent, 30 an hour then one flood push', async () => {
    await using dir = await pushDir();
    // One pane, a question every 1.1 s (a 1 s debounce, COLLIE_PUSH_DELAY=1): 3 in its first minute.
    const one = await dir.open('a.json', { delay: 1000 });
    const at: number[] = [];
    for (let i = 0; i < 100; i++) {
      one.p.update(blocked('t:%1', `step ${i}`));
      const before = one.clock.shown.length;
      one.clock.advance(1100);
      if (one.clock.shown.length > before) at.push(one.clock.now);
    }
    expect(at.filter((t) => t <= 60_000)).toHaveLength(PUSH_CAPS.perPaneMinute);
    for (const t of at) expect(at.filter((u) => u > t - 60_000 && u <= t).length).toBeLessThanOrEqual(PUSH_CAPS.perPaneMinute);

    // 100 panes at once: the agent's 10 a minute.
    const many = await dir.open('b.json');
    for (let i = 0; i < 100; i++) many.p.update(blocked(`t:%${i}`, `job ${i}`));
    many.clock.advance(DELAY);
    expect(many.clock.shown).toHaveLength(PUSH_CAPS.perAgentMinute);

    // 100 questions 30 s apart over 50 minutes: 30 push, the 31st is the one flood push, then silence.
    const hour = await dir.open('c.json');
    for (let i = 0; i < 100; i++) {
      hour.p.update(blocked(`t:%${i % 7}`, `hour ${i}`));
      hour.clock.advance(DELAY);
    }
    expect(hour.clock.shown).toHaveLength(PUSH_CAPS.perAgentHour);
    expect(hour.clock.floods).toBe(1);
  });

  it('a finished turn pushes once after the debounce, no reminder; withdrawn when the pane is opened; a shell never', async () => {
    await using dir = await pushDir();
    const { clock, p } = await dir.open('pushed.json');
    p.update(testPane({ id: 't:%1', state: 'working', since: 1 }));
    p.update(testPane({ id: 't:%1', state: 'done', since: 2 }));
    p.update(testPane({ id: 't:%2', state: 'done', since: 2, harness: 'shell' }));
    clock.advance(DELAY - 1);
    expect(clock.shown).toEqual([]);
    clock.advance(1);
    expect(clock.shown).toEqual([{ kind: 'finished', finished: true, title: 'Turn finished in collie#main', body: 'The agent waits for your next message.', url: '#/pane/t%3A%251', question: 'turn:t:%1:2', tag: expect.stringMatching(/^turn-/) }]);
    clock.advance(60 * 60_000);
    expect(clock.shown).toHaveLength(1);
    // Opened on the phone or at the desk: `done` turns to `idle`, and the notification goes.
    p.update(testPane({ id: 't:%1', state: 'idle', since: 3 }));
    expect(clock.withdrawn).toEqual([clock.shown[0]!.tag]);
    // A turn that ends and is picked up at the desk within the debounce pushes nothing.
    p.update(testPane({ id: 't:%1', state: 'done', since: 4 }));
    clock.advance(DELAY - 1);
    p.update(testPane({ id: 't:%1', state: 'working', since: 5 }));
    clock.advance(DELAY * 2);
    expect(clock.shown).toHaveLength(1);
  });
});
