/**
 * Fast tier, the timed and metered rules: the real Agent SDK against the testkit's scripted
 * stream-json CLI, a clock the test moves. `lost` (a task that left the runtime's live set with
 * no final status, and a spawn the runtime never started), `stop_unconfirmed` (a stop the
 * runtime never confirmed, announced on the event stream), and tokens and cost (the runtime's
 * meter; else each model call of the agent once, by its last frame, priced by the table).
 */
import { describe, expect, it } from 'vitest';
import type { AgentRecord, NerveEventFrame } from '@collie/protocol';
import { NEVER_STARTED_MS } from '../src/roster/roster';
import { callCost, PRICES } from '../src/roster/kinds';
import { assistant, fastRig, until } from './fast-kit';

const agentCall = (id: string, description: string) => assistant([{ type: 'tool_use', id, name: 'Agent', input: { description, prompt: description, run_in_background: true } }]);
const started = (task: string, toolUseId: string, description: string) => ({ type: 'system', subtype: 'task_started', task_id: task, tool_use_id: toolUseId, description, task_type: 'local_agent', is_backgrounded: true });
const liveSet = (...tasks: string[]) => ({ type: 'system', subtype: 'background_tasks_changed', tasks: tasks.map((t) => ({ task_id: t, task_type: 'local_agent', description: t })) });
/** One frame of a sub-agent's model call, as the CLI writes it: one message per content block, the call's usage so far. */
const agentSays = (parent: string, call: string, model: string, text: string, input: number, output: number) => ({
  type: 'assistant',
  message: { id: call, role: 'assistant', model, content: [{ type: 'text', text }], usage: { input_tokens: input, output_tokens: output } },
  parent_tool_use_id: parent,
});
const progress = (task: string, tokens: number) => ({ type: 'system', subtype: 'task_progress', task_id: task, description: 'metered', usage: { total_tokens: tokens, tool_uses: 1, duration_ms: 10 }, last_tool_name: 'Read' });

describe('nerve fast tier: needs_input, lost, stop_unconfirmed, tokens and cost', () => {
  it('a foreground agent asking a question needs input until it is answered, and the events say so both times', async () => {
    await using rig = await fastRig([
      {
        frames: [
          assistant([{ type: 'tool_use', id: 'toolu_fg', name: 'Agent', input: { description: 'Asks', prompt: 'ask me' } }]),
          { type: 'system', subtype: 'task_started', task_id: 'task_fg', tool_use_id: 'toolu_fg', description: 'Asks', task_type: 'local_agent', is_backgrounded: false },
          { type: 'assistant', message: { id: 'msg_q', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'tool_use', id: 'toolu_q', name: 'AskUserQuestion', input: { questions: [{ question: 'Which file?' }] } }] }, parent_tool_use_id: 'toolu_fg' },
          { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_q', content: 'main.ts' }] }, parent_tool_use_id: 'toolu_fg' },
          { type: 'assistant', message: { id: 'msg_q2', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'tool_use', id: 'toolu_q2', name: 'AskUserQuestion', input: { questions: [{ question: 'And the test?' }] } }] }, parent_tool_use_id: 'toolu_fg' },
        ],
        end: false,
      },
    ]);
    const seen: string[][] = [];
    const askingUpdates: string[][] = [];
    rig.gateway.subscribe((f) => {
      if (f.event.type !== 'agent.updated') return;
      seen.push(f.event.agent.attention);
      if (f.event.agent.activity?.startsWith('AskUserQuestion')) askingUpdates.push(f.event.agent.attention);
    });
    const s = rig.gateway.create('asks');
    s.send({ text: 'go', origin: 'api', sender: 'test' });
    // Asked (flagged in the very update that says so), answered (cleared), asked again.
    const flags = () => seen.map((a) => a.includes('needs_input')).filter((v, i, all) => i === 0 || v !== all[i - 1]);
    await until(() => flags().length === 4, 'asked, answered, asked again');
    expect(flags()).toEqual([false, true, false, true]);
    // The update that first says it asks already carries the flag.
    expect(askingUpdates[0]).toEqual(['needs_input']);
    expect(s.roster.list()[0]).toMatchObject({ status: 'running', background: false, attention: ['needs_input'] });
  });

  it('a task gone from the live set with no final status is lost after lost_grace_seconds; a spawn never started is lost after 5 minutes', async () => {
    let now = 1_800_000_000_000;
    await using rig = await fastRig(
      [
        {
          frames: [
            agentCall('toolu_v', 'Vanishes'),
            started('task_v', 'toolu_v', 'Vanishes'),
            agentCall('toolu_k', 'Keeps going'),
            started('task_k', 'toolu_k', 'Keeps going'),
            liveSet('task_v', 'task_k'),
            // The runtime drops task_v from its live set and never says how it ended.
            liveSet('task_k'),
            // A spawning call whose task the runtime never reports.
            agentCall('toolu_n', 'Never starts'),
          ],
        },
      ],
      { now: () => now, settings: { lost_grace_seconds: 30 } },
    );
    const s = rig.gateway.create('lost');
    s.send({ text: 'go', origin: 'api', sender: 'test' });
    await until(() => !s.isRunning && s.roster.list().length === 3, 'three records and the turn over');
    const by = (name: string) => s.roster.list().find((r) => r.name === name)!;
    expect([by('Vanishes').status, by('Keeps going').status, by('Never starts').status]).toEqual(['running', 'running', 'starting']);

    now += 29_999;
    rig.gateway.tick();
    expect(by('Vanishes').status).toBe('running');
    now += 1;
    rig.gateway.tick();
    expect(by('Vanishes')).toMatchObject({ status: 'lost', reason: 'vanished', attention: ['lost'] });
    expect(by('Keeps going').status).toBe('running');
    expect(by('Never starts').status).toBe('starting');

    now += NEVER_STARTED_MS - 30_000;
    rig.gateway.tick();
    expect(by('Never starts').status).toBe('starting');
    now += 1;
    rig.gateway.tick();
    expect(by('Never starts')).toMatchObject({ status: 'lost', reason: 'never_started', attention: ['lost'] });
    // Stored at once, and the live count follows.
    expect(rig.store.agents(s.id).filter((r) => r.status === 'lost').map((r) => r.name).sort()).toEqual(['Never starts', 'Vanishes']);
    expect(s.info()).toMatchObject({ background_count: 1, has_background_tasks: true });
  });

  it('a stop the runtime never confirms is flagged stop_unconfirmed after stop_confirm_seconds, and the flag is sent as an event', async () => {
    let now = 1_800_000_000_000;
    await using rig = await fastRig([{ frames: [agentCall('toolu_s', 'Deaf'), started('task_s', 'toolu_s', 'Deaf')] }], {
      now: () => now,
      settings: { stop_confirm_seconds: 10 },
      // The CLI answers the stop_task request but never reports the task stopped.
      script: { stopTaskAnswers: false },
    });
    const frames: NerveEventFrame[] = [];
    rig.gateway.subscribe((f) => frames.push(f));
    const s = rig.gateway.create('unconfirmed');
    s.send({ text: 'go', origin: 'api', sender: 'test' });
    await until(() => !s.isRunning && s.roster.list()[0]?.status === 'running', 'the agent running');
    const id = s.roster.list()[0]!.agent_id;
    expect(await s.stopAgent(id, 'tester')).toEqual([id]);
    expect(s.roster.get(id)).toMatchObject({ status: 'stopping', attention: [] });

    now += 9_999;
    rig.gateway.tick();
    expect(s.roster.get(id)?.attention).toEqual([]);
    now += 1;
    rig.gateway.tick();
    expect(s.roster.get(id)).toMatchObject({ status: 'stopping', attention: ['stop_unconfirmed'] });
    const flagged = frames.filter((f): f is NerveEventFrame & { event: { type: 'agent.updated'; agent: AgentRecord } } => f.event.type === 'agent.updated' && f.event.agent.agent_id === id && f.event.agent.attention.includes('stop_unconfirmed'));
    expect(flagged).toHaveLength(1);
    // Said once, not at every tick.
    now += 5_000;
    rig.gateway.tick();
    expect(frames.filter((f) => f.event.type === 'agent.updated' && f.event.agent.attention.includes('stop_unconfirmed'))).toHaveLength(1);
  });

  it("tokens from the runtime's meter when it reports one, else each model call once by its last frame; cost from the price table", async () => {
    await using rig = await fastRig([
      {
        frames: [
          agentCall('toolu_c', 'Counted by calls'),
          started('task_c', 'toolu_c', 'Counted by calls'),
          // Call 1 (sonnet) in two frames: only its last frame's usage counts.
          agentSays('toolu_c', 'msg_c1', 'claude-sonnet-4-5', 'Reading the code.', 1_000, 10),
          agentSays('toolu_c', 'msg_c1', 'claude-sonnet-4-5', 'Found it.', 1_000, 400),
          // Call 2 (haiku), one frame.
          agentSays('toolu_c', 'msg_c2', 'claude-haiku-4-5', 'Summing up.', 2_000, 100),
          agentCall('toolu_m', 'Metered'),
          started('task_m', 'toolu_m', 'Metered'),
          agentSays('toolu_m', 'msg_m1', 'claude-opus-4-1', 'Working.', 500, 50),
          // The runtime's own meter wins over the calls once it reports.
          progress('task_m', 12_345),
        ],
      },
    ]);
    const s = rig.gateway.create('tokens');
    s.send({ text: 'go', origin: 'api', sender: 'test' });
    await until(() => !s.isRunning && s.roster.list().length === 2 && s.roster.list()[1]!.tokens === 12_345, 'both metered');
    const [calls, metered] = s.roster.list();
    expect(calls!.tokens).toBe(1_000 + 400 + 2_000 + 100);
    const expected = (1_000 * PRICES.sonnet!.input + 400 * PRICES.sonnet!.output + 2_000 * PRICES.haiku!.input + 100 * PRICES.haiku!.output) / 1_000_000;
    expect(calls!.cost_usd).toBeCloseTo(expected, 12);
    expect(calls!.activity).toBe('Summing up.');
    expect(metered!.tokens).toBe(12_345);
    expect(metered!.cost_usd).toBeCloseTo(callCost('claude-opus-4-1', 500, 50), 12);
    // The agents' calls went to their transcripts, not the orchestrator's turn.
    rig.gateway.flush();
    expect(rig.store.transcript(calls!.agent_id).filter((e) => e.kind === 'text').map((e) => e.payload.text)).toEqual(['Reading the code.', 'Found it.', 'Summing up.']);
    // Stored with the next write-behind flush.
    expect(rig.store.agents(s.id).map((r) => r.tokens)).toEqual([3_500, 12_345]);
  });
});
