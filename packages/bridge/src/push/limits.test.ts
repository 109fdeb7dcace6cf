import { describe, expect, it } from 'vitest';
import { tempDir } from '@collie/testkit';
import { loadConfig } from '../config';
import { Presence } from './presence';
import { MAX_SUBSCRIPTIONS, PushStore } from './store';

const sub = (i: number) => ({ endpoint: `https://push.example/${i}`, keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } });

describe('the push numbers', () => {
  it('COLLIE_PUSH_DELAY defaults to 30 s and COLLIE_PUSH_AWAY to 120 s; a bad value is named', () => {
    const d = { home: '/home/ada', uid: 1000, hostname: 'ada' };
    const base = loadConfig({}, d);
    expect(base.ok && [base.config.pushDelaySeconds, base.config.pushAwaySeconds]).toEqual([30, 120]);
    const set = loadConfig({ COLLIE_PUSH_DELAY: '5', COLLIE_PUSH_AWAY: '0' }, d);
    expect(set.ok && [set.config.pushDelaySeconds, set.config.pushAwaySeconds]).toEqual([5, 0]);
    const bad = loadConfig({ COLLIE_PUSH_DELAY: 'soon' }, d);
    expect(!bad.ok && bad.errors).toEqual(['COLLIE_PUSH_DELAY: "soon" is not a number of seconds from 0 to 86400']);
  });

  it('someone looked within 2 minutes: looking; at 2 minutes: not', () => {
    const p = new Presence(120_000);
    expect(p.looking(0)).toBe(false);
    p.report('phone', 1_000);
    expect(p.looking(1_000 + 119_999)).toBe(true);
    expect(p.looking(1_000 + 120_000)).toBe(false);
  });

  it('at most 1,000 subscriptions are kept; the same endpoint again replaces its entry', async () => {
    await using dir = await tempDir('collie-push-store');
    const store = await PushStore.open(dir.path);
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) expect(await store.add('d', sub(i), i)).toBe(true);
    expect(MAX_SUBSCRIPTIONS).toBe(1000);
    expect(await store.add('d', sub(5), 0)).toBe(true);
    expect(await store.add('d', sub(1000), 0)).toBe(false);
    expect(store.all).toHaveLength(1000);
    const again = await PushStore.open(dir.path);
    expect(again.all).toHaveLength(1000);
  }, 60_000);
});
