import { callCost } from './kinds';

/** One model call as its last frame reported it. */
export interface MeteredCall {
  id: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
}

/** Each model call counted once, by its last frame: running totals, so a long agent stays O(1) a frame. */
interface Meter {
  calls: Map<string, { model: string; input: number; output: number }>;
  callTokens: number;
  callCost: number;
  reported: number | null;
}

/** Every agent's tokens and cost: the runtime's own total when it reports one, else its model calls summed. */
export class Meters {
  private readonly meters = new Map<string, Meter>();

  /** The runtime's own total for an agent (a task's `totalTokens`). */
  reported(agentId: string, total: number | null): void {
    if (total !== null) this.meter(agentId).reported = total;
  }

  /** A model call's frame: its figures replace the same call's earlier ones. */
  call(agentId: string, c: MeteredCall): void {
    const m = this.meter(agentId);
    const was = m.calls.get(c.id);
    if (was) {
      m.callTokens -= was.input + was.output;
      m.callCost -= callCost(was.model, was.input, was.output);
    }
    m.calls.set(c.id, { model: c.model, input: c.inputTokens, output: c.outputTokens });
    m.callTokens += c.inputTokens + c.outputTokens;
    m.callCost += callCost(c.model, c.inputTokens, c.outputTokens);
  }

  /** Tokens from the runtime's meter when it reported one, else from the agent's model calls. */
  tokens(agentId: string): { tokens: number; cost_usd: number } {
    const m = this.meter(agentId);
    const tokens = m.reported ?? m.callTokens;
    const cost = m.calls.size === 0 ? callCost('sonnet', tokens, 0) : Math.max(0, m.callCost);
    return { tokens, cost_usd: cost };
  }

  private meter(agentId: string): Meter {
    let m = this.meters.get(agentId);
    if (!m) this.meters.set(agentId, (m = { calls: new Map(), callTokens: 0, callCost: 0, reported: null }));
    return m;
  }
}
