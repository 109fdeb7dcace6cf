import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentRecord } from '@collie/protocol';
import { dockLine, groupAgents, isQuiet, mergeRecords, moveInQueue, subscribedTabs } from './roster';

const T0 = 1_800_000_000_000;
let n = 0;
const rec = (p: Partial<AgentRecord>): AgentRecord => ({
  agent_id: `ag_${(n++).toString(16).padStart(12, '0')}`,
  session_id: 's',
  kind: 'agent',
  status: 'running',
  reason: null,
  tool_use_id: null,
  task_id: null,
  parent_agent_id: null,
  name: 'a',
  prompt: '',
  background: true,
  runs: 1,
  activity: null,
  summary: null,
  tokens: 0,
  cost_usd: 0,
  created_at: T0,
  started_at: T0,
  ended_at: null,
  last_activity_at: T0,
  stop_requested_at: null,
  attention: [],
  ...p,
});

describe('the roster views', () => {
  it('flags a running agent quiet after quiet_after_minutes without activity, and only a running one', () => {
    const r = rec({});
    expect(isQuiet(r, T0 + 10 * 60_000 - 1, 10)).toBe(false);
    expect(isQuiet(r, T0 + 10 * 60_000, 10)).toBe(true);
    expect(isQuiet(r, T0 + 2 * 60_000, 1)).toBe(true);
    expect(isQuiet(rec({ status: 'stopping' }), T0 + 60 * 60_000, 10)).toBe(false);
    expect(isQuiet(rec({ status: 'completed' }), T0 + 60 * 60_000, 10)).toBe(false);
  });

  it('groups Needs attention → Running (children nested) → Done → Ended; quiet needs attention', () => {
    const parent = rec({ name: 'parent' });
    const child = rec({ name: 'child', parent_agent_id: parent.agent_id });
    const quiet = rec({ name: 'quiet', last_activity_at: T0 - 20 * 60_000 });
    const failed = rec({ name: 'failed', status: 'failed', attention: ['failed'] });
    const done = rec({ name: 'done', status: 'completed' });
    const stopped = rec({ name: 'stopped', status: 'stopped', reason: 'user' });
    const g = groupAgents([child, stopped, done, parent, quiet, failed], T0, 10);
    expect(g.map((x) => [x.name, x.views.map((v) => [v.record.name, v.depth])])).toEqual([
      ['attention', [['quiet', 0], ['failed', 0]]],
      ['running', [['parent', 0], ['child', 1]]],
      ['done', [['done', 0]]],
      ['ended', [['stopped', 0]]],
    ]);
    expect(dockLine([parent, child, quiet, done], T0, 10)?.counts).toBe('2 running · 1 needs attention · 1 done');
    expect(dockLine([done, stopped], T0, 10)?.counts).toBe('0 running · 1 done · 1 ended');
  });

  it('puts every agent in exactly one group (property)', () => {
    const status = fc.constantFrom('starting', 'running', 'stopping', 'completed', 'failed', 'stopped', 'interrupted', 'lost') as fc.Arbitrary<AgentRecord['status']>;
    fc.assert(
      fc.property(fc.array(fc.record({ status, idle: fc.nat(60), flagged: fc.boolean() }), { maxLength: 30 }), (xs) => {
        const recs = xs.map((x) => rec({ status: x.status, last_activity_at: T0 - x.idle * 60_000, attention: x.flagged ? ['failed'] : [] }));
        const ids = groupAgents(recs, T0, 10).flatMap((g) => g.views.map((v) => v.record.agent_id));
        expect(ids.sort()).toEqual(recs.map((r) => r.agent_id).sort());
      }),
    );
  });

  it('keeps the newer copy of a record, moves queue items, subscribes at most 8 tabs', () => {
    const old = rec({ status: 'running', last_activity_at: T0 });
    const newer = { ...old, status: 'completed' as const, last_activity_at: T0 + 5 };
    expect(mergeRecords([newer], new Map([[old.agent_id, old]]))[0]!.status).toBe('completed');
    expect(mergeRecords([old], new Map([[old.agent_id, newer]]))[0]!.status).toBe('completed');
    expect(moveInQueue(['a', 'b', 'c'], 'a', 1)).toEqual(['b', 'a', 'c']);
    expect(moveInQueue(['a', 'b', 'c'], 'a', -1)).toBeNull();
    const tabs = Array.from({ length: 10 }, (_, i) => `t${i}`);
    expect(subscribedTabs(tabs, 't9').size).toBe(8);
    expect(subscribedTabs(tabs, 't0').has('t0')).toBe(true);
    expect(subscribedTabs(tabs, 't0').size).toBe(8);
  });
});
