import type { AgentKind } from '@collie/protocol';

/** Tool calls that start background work, and the kind of record each gets. */
export function spawnKind(name: string, input: Record<string, unknown>): AgentKind | null {
  switch (name) {
    case 'Agent':
    case 'Task': // the same tool: `Agent` in tool_use blocks, `Task` in system/init.tools
      return 'agent';
    case 'Workflow':
      return 'workflow';
    case 'Monitor':
      return 'monitor';
    case 'Bash':
      // A foreground Bash call is part of the turn; only a background one is work of its own.
      return input.run_in_background === true ? 'shell' : null;
    default:
      return null;
  }
}

/** The runtime's task_type, in our kinds. */
export function taskKind(taskType: string): AgentKind {
  switch (taskType) {
    case 'local_agent':
      return 'agent';
    case 'local_bash':
      return 'shell';
    case 'local_workflow':
      return 'workflow';
    case 'monitor':
    case 'monitor_mcp':
      return 'monitor';
    case 'in_process_teammate':
    case 'teammate':
      return 'teammate';
    case 'remote_agent':
      return 'remote_agent';
    case 'mcp_task':
      return 'mcp_task';
    default:
      return 'other';
  }
}

/** Housekeeping tasks of the CLI: kept out of every list and count. */
export const AMBIENT_TASK_TYPES: ReadonlySet<string> = new Set(['dream', 'auto_mode_scan']);

/** A display name for a spawning call. */
export function callName(name: string, input: Record<string, unknown>): string {
  const pick = (k: string) => (typeof input[k] === 'string' ? (input[k] as string) : '');
  return (pick('description') || pick('name') || pick('command') || pick('prompt') || name).slice(0, 200);
}

/** USD per million tokens, input and output: the live estimate's price table. */
export const PRICES: Record<string, { input: number; output: number }> = {
  opus: { input: 15, output: 75 },
  sonnet: { input: 3, output: 15 },
  haiku: { input: 1, output: 5 },
};

/** The estimated cost of one model call. Unknown models are priced as sonnet. */
export function callCost(model: string, inputTokens: number, outputTokens: number): number {
  const family = Object.keys(PRICES).find((f) => model.includes(f)) ?? 'sonnet';
  const p = PRICES[family] ?? { input: 3, output: 15 };
  return (inputTokens * p.input + outputTokens * p.output) / 1_000_000;
}
