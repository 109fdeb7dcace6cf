import { PUSH_CAPS } from '@collie/protocol';

export type CapDecision = { push: 'question' } | { push: 'flood' } | { push: 'none'; why: 'pane_minute' | 'agent_minute' | 'silenced' };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The push caps of a durable agent on one machine: 3 a minute per pane (a conversation), 10 a
 * minute and 30 an hour per agent; the push past the 30th in an hour is the one flood push,
 * then an hour of silence for that agent. Windows slide; only pushes sent count. Pure: the
 * clock is the caller's.
 */
export class PushCaps {
  private readonly panes = new Map<string, number[]>();
  private readonly agents = new Map<string, number[]>();
  private readonly silentUntil = new Map<string, number>();

  constructor(private readonly caps: typeof PUSH_CAPS = PUSH_CAPS) {}

  decide(agent: string, pane: string, now: number): CapDecision {
    if ((this.silentUntil.get(agent) ?? -Infinity) > now) return { push: 'none', why: 'silenced' };
    const a = recent(this.agents.get(agent), now, HOUR);
    const p = recent(this.panes.get(`${agent}\n${pane}`), now, MINUTE);
    this.agents.set(agent, a);
    this.panes.set(`${agent}\n${pane}`, p);
    if (a.length >= this.caps.perAgentHour) {
      this.silentUntil.set(agent, now + this.caps.silenceMs);
      this.agents.set(agent, []);
      return { push: 'flood' };
    }
    if (a.filter((t) => t > now - MINUTE).length >= this.caps.perAgentMinute) return { push: 'none', why: 'agent_minute' };
    if (p.length >= this.caps.perPaneMinute) return { push: 'none', why: 'pane_minute' };
    a.push(now);
    p.push(now);
    return { push: 'question' };
  }
}

function recent(xs: number[] | undefined, now: number, span: number): number[] {
  return (xs ?? []).filter((t) => t > now - span);
}
