/**
 * Fast tier: the real Agent SDK against the testkit's scripted stream-json CLI. Each test's
 * CLI plays frames as the real one writes them; the roster, the stops and the queue must
 * follow them exactly. A clock the test moves drives the timed rules.
 */
import { describe, expect, it } from 'vitest';
import { CLAIM_MS } from '../src/roster/roster';
import { assistant, fastRig, until } from './fast-kit';

const agentCall = (id: string, description: string) => assistant([{ type: 'tool_use', id, name: 'Agent', input: { description, prompt: description, run_in_background: true } }]);
const started = (task: string, description: string, more: Record<string, unknown> = {}) => ({ type: 'system', subtype: 'task_started', task_id: task, description, task_type: 'local_agent', is_backgrounded: true, ...more });
const note = (task: string, status: string, summary = status) => ({ type: 'system', subtype: 'task_notification', task_id: task, status, output_file: '', summary });
const result = (toolUseId: string, text: string) => ({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: text }] }, parent_tool_use_id: null });

describe('nerve fast tier (scripted stream-json CLI)', () => {
  it('binds a task its call names later; an unclaimed one gets its own record after 10 s; ambient tasks stay out', async () => {
    let now = 1_800_000_000_000;
    await using rig = await fastRig(
      [
        {
          frames: [
            agentCall('toolu_a', 'Claimed later'),
            started('task_a', 'Claimed later'),
            started('task_orphan', 'Nobody claims me'),
            started('task_dream', 'housekeeping', { task_type: 'dream' }),
            started('task_amb', 'ambient', { ambient: true }),
            result('toolu_a', 'Async agent launched successfully. agentId: task_a'),
          ],
        },
      ],
      { now: () => now },
    );
    const s = rig.gateway.create('claims');
    s.send({ text: 'go', origin: 'api', sender: 'test' });
    await until(() => !s.isRunning && s.roster.list().some((r) => r.task_id === 'task_a'), 'the claim');
    expect(s.roster.list().map((r) => [r.name, r.task_id, r.tool_use_id, r.status])).toEqual([['Claimed later', 'task_a', 'toolu_a', 'running']]);
    now += CLAIM_MS - 1;
    rig.gateway.tick();
    expect(s.roster.list()).toHaveLength(1);
    now += 1;
    rig.gateway.tick();
    expect(s.roster.list().map((r) => [r.name, r.task_id, r.tool_use_id])).toEqual([
      ['Claimed later', 'task_a', 'toolu_a'],
      ['Nobody claims me', 'task_orphan', null],
    ]);
    // Ambient housekeeping is in no list and no count.
    expect(s.info().background_count).toBe(2);
  });

  it('each status and stop reason from the frames: failed (by the runtime, a failed spawn), completed, a foreground Bash moved to the background, stopped by the orchestrator or by nobody known', async () => {
    const updated = (task: string, patch: Record<string, unknown>) => ({ type: 'system', subtype: 'task_updated', task_id: task, patch });
    const err = (toolUseId: string, text: string) => ({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: text, is_error: true }] }, parent_tool_use_id: null });
    await using rig = await fastRig([
      {
        frames: [
          agentCall('toolu_f', 'Fails'),
          started('task_f', 'Fails', { tool_use_id: 'toolu_f' }),
          note('task_f', 'failed', 'boom'),
          agentCall('toolu_e', 'Never spawns'),
          err('toolu_e', 'Agent type not found'),
          agentCall('toolu_c', 'Completes'),
          started('task_c', 'Completes', { tool_use_id: 'toolu_c' }),
          updated('task_c', { status: 'completed' }),
          // A foreground Bash is the turn's own work: no record until it moves to the background.
          assistant([{ type: 'tool_use', id: 'toolu_fg', name: 'Bash', input: { command: 'make test', description: 'Tests' } }]),
          started('task_fg', 'Tests', { tool_use_id: 'toolu_fg', task_type: 'local_bash', is_backgrounded: false }),
          agentCall('toolu_o', 'Stopped by the orchestrator'),
          started('task_o', 'Stopped by the orchestrator', { tool_use_id: 'toolu_o' }),
          assistant([{ type: 'tool_use', id: 'toolu_ts', name: 'TaskStop', input: { task_id: 'task_o' } }]),
          note('task_o', 'stopped'),
          agentCall('toolu_x', 'Stopped by nobody known'),
          started('task_x', 'Stopped by nobody known', { tool_use_id: 'toolu_x' }),
          note('task_x', 'stopped'),
        ],
      },
      { frames: [updated('task_fg', { is_backgrounded: true })] },
    ]);
    const s = rig.gateway.create('statuses');
    s.send({ text: 'go', origin: 'api', sender: 'test' });
    await until(() => !s.isRunning && s.roster.list().length === 5 && !s.roster.list().some((r) => r.status === 'running' || r.status === 'starting'), 'five records settled');
    const view = () => s.roster.list().map((r) => [r.name, r.kind, r.status, r.reason, r.attention]);
    expect(view()).toEqual([
      ['Fails', 'agent', 'failed', null, ['failed']],
      ['Never spawns', 'agent', 'failed', null, ['failed']],
      ['Completes', 'agent', 'completed', null, []],
      ['Stopped by the orchestrator', 'agent', 'stopped', 'orchestrator', []],
      ['Stopped by nobody known', 'agent', 'stopped', 'unknown_stop', []],
    ]);
    expect(s.roster.list()[0]!.summary).toBe('boom');
    expect(s.roster.list()[1]!.summary).toBe('Agent type not found');
    expect(s.info().background_count).toBe(0);
    // The foreground Bash outlives its timeout and the runtime moves it to the background: now a record.
    s.send({ text: 'next', origin: 'api', sender: 'test' });
    await until(() => s.roster.list().length === 6, 'the backgrounded shell');
    expect(s.roster.list()[5]).toMatchObject({ name: 'Tests', kind: 'shell', status: 'running', task_id: 'task_fg', background: true });
    expect(s.info().background_count).toBe(1);
  });

  it('the first final status wins; a resume of a finished task runs it again (runs 2)', async () => {
    await using rig = await fastRig([
      { frames: [agentCall('toolu_w', 'Worker'), started('task_w', 'Worker', { tool_use_id: 'toolu_w' }), note('task_w', 'completed', 'All done'), note('task_w', 'failed', 'late failure')] },
      { frames: [started('task_w', 'Worker', { tool_use_id: 'toolu_w' })] },
    ]);
    const s = rig.gateway.create('finals');
    s.send({ text: 'go', origin: 'api', sender: 'test' });
    await until(() => !s.isRunning && s.roster.list()[0]?.status === 'completed', 'completed');
    expect(s.roster.list()[0]).toMatchObject({ status: 'completed', summary: 'All done', runs: 1 });
    s.send({ text: 'resume it', origin: 'api', sender: 'test' });
    await until(() => s.roster.list()[0]?.status === 'running', 'the resume');
    expect(s.roster.list()).toHaveLength(1);
    expect(s.roster.list()[0]).toMatchObject({ status: 'running', runs: 2 });
  });

  it('stop one agent, stop all with the turn, and needs_confirmation without perTaskStopAffordance', async () => {
    const frames = [agentCall('toolu_1', 'One'), started('t1', 'One', { tool_use_id: 'toolu_1' }), agentCall('toolu_2', 'Two'), started('t2', 'Two', { tool_use_id: 'toolu_2' })];
    {
      await using rig = await fastRig([{ frames, end: false }]);
      const s = rig.gateway.create('stops');
      s.send({ text: 'go', origin: 'api', sender: 'test' });
      await until(() => s.roster.list().filter((r) => r.status === 'running').length === 2, 'two running');
      const [one, two] = s.roster.list();
      expect(await s.stopAgent(one!.agent_id, 'tester')).toEqual([one!.agent_id]);
      await until(() => s.roster.get(one!.agent_id)?.status === 'stopped', 'one stopped');
      expect(s.roster.get(one!.agent_id)?.reason).toBe('user');
      expect(s.roster.get(two!.agent_id)?.status).toBe('running');
      expect(s.isRunning).toBe(true);
      expect(await s.stop('all', 'tester')).toEqual({ outcome: 'stopped', live_agents: [two!.agent_id] });
      await until(() => s.roster.get(two!.agent_id)?.status === 'stopped' && !s.isRunning, 'all stopped and the turn over');
      expect(s.roster.get(two!.agent_id)?.reason).toBe('stop_all');
      expect(await s.stop('turn', 'tester')).toEqual({ outcome: 'nothing_running', live_agents: [] });
    }
    {
      await using rig = await fastRig([{ frames, end: false }], { settings: { per_task_stop_affordance: false } });
      const s = rig.gateway.create('no affordance');
      s.send({ text: 'go', origin: 'api', sender: 'test' });
      await until(() => s.roster.list().filter((r) => r.status === 'running').length === 2, 'two running');
      const a = await s.stop('turn', 'tester');
      expect(a.outcome).toBe('needs_confirmation');
      expect(a.live_agents).toHaveLength(2);
      // Nothing was sent: the turn runs on, the agents live.
      expect(s.isRunning).toBe(true);
      expect(s.roster.live()).toHaveLength(2);
    }
  });

  it('queues while a turn runs, dedupes client_msg_id, cancels by sender only, hands the run lock to the first queued message', async () => {
    await using rig = await fastRig([{ frames: [assistant([{ type: 'text', text: 'Working.' }])], end: false }, { frames: [assistant([{ type: 'text', text: 'Second.' }])] }, { frames: [] }]);
    const s = rig.gateway.create('queue');
    expect(s.send({ text: 'first', origin: 'api', sender: 'ann' }).outcome).toBe('started');
    await until(() => s.isRunning, 'the first turn');
    const b = s.send({ text: 'second', origin: 'web', sender: 'bob', clientMsgId: 'c-1' });
    expect(b.outcome).toBe('queued');
    expect(s.send({ text: 'second', origin: 'web', sender: 'bob', clientMsgId: 'c-1' })).toEqual({ outcome: 'duplicate', queue_id: b.queue_id });
    const c = s.send({ text: 'third', origin: 'api', sender: 'ann' });
    expect(s.queue.list().map((q) => [q.preview, q.origin, q.sender])).toEqual([
      ['second', 'web', 'bob'],
      ['third', 'api', 'ann'],
    ]);
    expect(s.cancelQueued(c.queue_id, 'bob')).toMatchObject({ ok: false, code: 'not_sender' });
    expect(s.reorderQueue([c.queue_id]).ok).toBe(true);
    expect(s.queue.list().map((q) => q.preview)).toEqual(['third', 'second']);
    expect(s.cancelQueued(b.queue_id, 'bob')).toEqual({ ok: true, text: 'second' });
    // The turn ends (Stop); the run lock goes straight to the first queued message.
    await until(async () => (await rig.received()).length === 1, 'the CLI got the first message');
    expect((await s.stop('turn', 'tester')).outcome).toBe('stopped');
    await until(() => s.queue.size === 0, 'the queue handed on');
    await until(async () => (await rig.received()).length === 2, 'the CLI got the queued message');
    // The model never saw a queued message during an earlier turn; the cancelled one never came.
    expect(await rig.received()).toEqual([
      { text: 'first', duringTurn: false },
      { text: 'third', duringTurn: false },
    ]);
  });
});
