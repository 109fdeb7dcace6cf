import { describe, expect, it } from 'vitest';
import type { AgentTranscriptEvent, AgentRecord } from '@collie/protocol';
import type { RosterInput } from './input';
import { CLAIM_MS, NEVER_STARTED_MS, Roster } from './roster';

function rig() {
  let t = 1_000;
  let n = 0;
  const changes: Array<{ r: AgentRecord; status: boolean }> = [];
  const events: AgentTranscriptEvent[] = [];
  const roster = new Roster('ses_1', () => t, () => `ag_${(++n).toString(16).padStart(12, '0')}`, {
    changed: (r, status) => changes.push({ r, status }),
    event: (e) => events.push(e),
  }, { lostGraceSeconds: 30, stopConfirmSeconds: 10 });
  const feed = (...inputs: RosterInput[]) => inputs.forEach((i) => roster.ingest(i));
  return { roster, feed, changes, events, advance: (ms: number) => (t += ms) };
}

const agentCall = (id: string, parent: string | null = null, background = true): RosterInput => ({
  type: 'tool_call', toolUseId: id, name: 'Agent', input: { description: `work ${id}`, prompt: 'do it', run_in_background: background }, parentToolUseId: parent,
});
const started = (taskId: string, toolUseId: string | null, extra: Partial<Extract<RosterInput, { type: 'task_started' }>> = {}): RosterInput => ({
  type: 'task_started', taskId, toolUseId, taskType: 'local_agent', description: 'work', prompt: null, background: true, parentTaskId: null, ambient: false, ...extra,
});
const ended = (taskId: string, status: 'completed' | 'failed' | 'stopped'): RosterInput => ({ type: 'task_notification', taskId, toolUseId: null, status, summary: `${status}!`, totalTokens: null });

describe('roster', () => {
  it('gives an ag_ id at the spawning call, then runs and completes', () => {
    const { roster, feed } = rig();
    feed(agentCall('toolu_1'));
    const [r] = roster.list();
    expect(r).toMatchObject({ status: 'starting', kind: 'agent', tool_use_id: 'toolu_1', task_id: null });
    expect(r!.agent_id).toMatch(/^ag_[0-9a-f]{12}$/);
    feed(started('t1', 'toolu_1'), ended('t1', 'completed'));
    expect(roster.get(r!.agent_id)).toMatchObject({ status: 'completed', task_id: 't1', summary: 'completed!' });
    expect(roster.live()).toHaveLength(0);
  });

  it('a task reported without its call id lands on the record its result names', () => {
    const { roster, feed } = rig();
    feed(agentCall('toolu_1'), started('t9', null), { type: 'task_progress', taskId: 't9', totalTokens: 42, lastTool: 'Read', summary: null });
    expect(roster.list()).toHaveLength(1);
    feed({ type: 'tool_result', toolUseId: 'toolu_1', isError: false, text: 'Async agent launched', namedTaskId: 't9', parentToolUseId: null });
    const [r] = roster.list();
    expect(r).toMatchObject({ status: 'running', task_id: 't9', tokens: 42 });
  });

  it('a task no call claims within 10 s gets a record of its own', () => {
    const { roster, feed, advance } = rig();
    feed(started('t5', null, { taskType: 'local_bash', description: 'npm test' }));
    roster.tick();
    expect(roster.list()).toHaveLength(0);
    advance(CLAIM_MS);
    roster.tick();
    expect(roster.list()).toMatchObject([{ kind: 'shell', status: 'running', task_id: 't5', tool_use_id: null }]);
  });

  it('keeps ambient housekeeping tasks out of every list and count', () => {
    const { roster, feed, advance } = rig();
    feed(started('d1', null, { taskType: 'dream' }), started('a1', null, { ambient: true }), ended('d1', 'completed'));
    advance(CLAIM_MS);
    roster.tick();
    expect(roster.list()).toHaveLength(0);
  });

  it('the first final status wins', () => {
    const { roster, feed } = rig();
    feed(agentCall('toolu_1'), started('t1', 'toolu_1'), ended('t1', 'failed'), ended('t1', 'completed'));
    expect(roster.list()[0]).toMatchObject({ status: 'failed', attention: ['failed'] });
  });

  it('a SendMessage resume of the same task runs it again and counts the run', () => {
    const { roster, feed } = rig();
    feed(agentCall('toolu_1'), started('t1', 'toolu_1'), ended('t1', 'completed'), started('t1', null));
    expect(roster.list()[0]).toMatchObject({ status: 'running', runs: 2 });
  });

  it('a stopped agent is not resumed', () => {
    const { roster, feed } = rig();
    feed(agentCall('toolu_1'), started('t1', 'toolu_1'), ended('t1', 'stopped'), started('t1', null));
    expect(roster.list()[0]).toMatchObject({ status: 'stopped', reason: 'unknown_stop', runs: 1 });
  });

  it('a stop we asked for ends with its reason; TaskStop is the orchestrator', () => {
    const { roster, feed, advance } = rig();
    feed(agentCall('a'), started('ta', 'a'), agentCall('b'), started('tb', 'b'));
    const [a, b] = roster.list();
    roster.requestStop([a!.agent_id], 'user');
    expect(roster.get(a!.agent_id)?.status).toBe('stopping');
    advance(10_000);
    expect(roster.get(a!.agent_id)?.attention).toEqual(['stop_unconfirmed']);
    feed({ type: 'tool_call', toolUseId: 'x', name: 'TaskStop', input: { task_id: 'tb' }, parentToolUseId: null }, ended('ta', 'stopped'), ended('tb', 'stopped'));
    expect(roster.get(a!.agent_id)).toMatchObject({ status: 'stopped', reason: 'user' });
    expect(roster.get(b!.agent_id)).toMatchObject({ status: 'stopped', reason: 'orchestrator' });
  });

  it('children are stopped deepest first', () => {
    const { roster, feed } = rig();
    feed(agentCall('p'), started('tp', 'p'), agentCall('c', 'p'), started('tc', 'c', { parentTaskId: 'tp' }), agentCall('g', 'c'), started('tg', 'g'));
    const [p, c, g] = roster.list();
    expect(c!.parent_agent_id).toBe(p!.agent_id);
    expect(roster.subtree(p!.agent_id).map((r) => r.agent_id)).toEqual([g!.agent_id, c!.agent_id, p!.agent_id]);
  });

  it('a foreground Bash gets no record unless moved to the background', () => {
    const { roster, feed } = rig();
    feed({ type: 'tool_call', toolUseId: 'bash1', name: 'Bash', input: { command: 'sleep 1' }, parentToolUseId: null });
    feed(started('b1', 'bash1', { taskType: 'local_bash', background: false }));
    expect(roster.list()).toHaveLength(0);
    feed({ type: 'task_updated', taskId: 'b1', status: null, backgrounded: true, error: null });
    expect(roster.list()).toMatchObject([{ kind: 'shell', status: 'running', background: true }]);
  });

  it('a background Bash call is a shell record', () => {
    const { roster, feed } = rig();
    feed({ type: 'tool_call', toolUseId: 'bash2', name: 'Bash', input: { command: 'sleep 60', run_in_background: true }, parentToolUseId: null });
    expect(roster.list()).toMatchObject([{ kind: 'shell', name: 'sleep 60', prompt: 'sleep 60' }]);
  });

  it('a member that leaves the live set with no final status is lost after the grace', () => {
    const { roster, feed, advance } = rig();
    feed(agentCall('a'), started('ta', 'a'), { type: 'background_set', tasks: [{ taskId: 'ta', ambient: false }] }, { type: 'background_set', tasks: [] });
    advance(29_000);
    roster.tick();
    expect(roster.list()[0]!.status).toBe('running');
    advance(1_000);
    roster.tick();
    expect(roster.list()[0]).toMatchObject({ status: 'lost', reason: 'vanished', attention: ['lost'] });
  });

  it('a record that never starts within 5 minutes is lost', () => {
    const { roster, feed, advance } = rig();
    feed(agentCall('a'));
    advance(NEVER_STARTED_MS + 1);
    roster.tick();
    expect(roster.list()[0]).toMatchObject({ status: 'lost', reason: 'never_started' });
  });

  it('interruptAll ends every live agent with the reason', () => {
    const { roster, feed } = rig();
    feed(agentCall('a'), started('ta', 'a'), agentCall('b'), started('tb', 'b'), ended('tb', 'completed'));
    expect(roster.interruptAll('force_stop')).toHaveLength(1);
    expect(roster.list().map((r) => [r.status, r.reason])).toEqual([['interrupted', 'force_stop'], ['completed', null]]);
  });

  it('counts tokens of each model call once, by its last frame, and prices them', () => {
    const { roster, feed } = rig();
    feed(agentCall('a'), started('ta', 'a'));
    const frame = (id: string, out: number): RosterInput => ({ type: 'agent_frame', parentToolUseId: 'a', kind: 'text', payload: { text: 'hi' }, call: { id, model: 'claude-sonnet-4-5', inputTokens: 1000, outputTokens: out } });
    feed(frame('m1', 10), frame('m1', 50), frame('m2', 100));
    expect(roster.list()[0]).toMatchObject({ tokens: 2150 });
    expect(roster.list()[0]!.cost_usd).toBeCloseTo((2000 * 3 + 150 * 15) / 1e6, 8);
  });

  it('flags needs_input while a foreground agent asks a question', () => {
    const { roster, feed } = rig();
    feed(agentCall('a', null, false), started('ta', 'a', { background: false }));
    feed({ type: 'tool_call', toolUseId: 'q', name: 'AskUserQuestion', input: {}, parentToolUseId: 'a' });
    expect(roster.list()[0]!.attention).toEqual(['needs_input']);
    feed({ type: 'tool_result', toolUseId: 'q', isError: false, text: 'Red', namedTaskId: null, parentToolUseId: 'a' });
    expect(roster.list()[0]!.attention).toEqual([]);
  });
});
