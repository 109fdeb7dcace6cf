/**
 * Ready turn scripts for the scripted Messages API: the situations Collie has to read on a
 * real Claude Code screen (a reply, a long turn, a permission dialog, a question, a
 * background agent).
 */
import type { ApiRequest, Scenario, TurnScript } from './messages-api';
import type { ScriptBlock, Turn } from './messages-wire';

/** One AskUserQuestion question, as the tool's input schema has it. */
export interface Question {
  question: string;
  /** A short chip label (12 characters at most). */
  header: string;
  /** Two to four options; `preview` is a mockup drawn beside the options. */
  options: Array<{ label: string; description: string; preview?: string }>;
  multiSelect?: boolean;
}

/**
 * Answers with `text` at once.
 *
 * @example
 * api.script(plainReply('Hello from the scripted API.'));
 */
export function plainReply(text: string): TurnScript {
  return () => say(text);
}

/**
 * Streams `text` slowly over `ms`, so the CLI shows a working turn all that time.
 *
 * @example
 * api.script(longTurn(30_000, 'Still thinking about it.'));
 */
export function longTurn(ms: number, text: string): TurnScript {
  return () => ({ ...say(text), durationMs: ms });
}

/** A turn that works until the test releases it (see {@link heldTurn}). */
export interface HeldTurn extends Disposable {
  readonly script: TurnScript;
  /** Ends the turn: `text` is answered at once. Safe to call more than once. */
  release(): void;
}

/**
 * A working turn that lasts exactly as long as the test needs: the API holds its answer
 * until `release()` (or disposal), then answers with `text`. Unlike {@link longTurn}, no
 * guess at how long the test's own waits take under load.
 *
 * @example
 * using turn = heldTurn('Long turn done.');
 * api.script(turn.script);
 * // ... what must happen while the agent works ...
 * turn.release();
 */
export function heldTurn(text: string): HeldTurn {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    script: async () => {
      await released;
      return say(text);
    },
    release,
    [Symbol.dispose]: release,
  };
}

/**
 * A Bash call that needs the user's permission, then a closing text once the tool result
 * comes back (saying whether it ran or was refused). In auto mode there is no dialog: the
 * server-side check passes the call, or blocks it with `flagged`.
 *
 * @example
 * api.script(bashPermission('touch made-by-bash'));
 */
export function bashPermission(command: string, opts: { description?: string; flagged?: boolean } = {}): Scenario {
  const call: ScriptBlock = { type: 'tool_use', name: 'Bash', input: { command, description: opts.description ?? 'Run the scripted command' } };
  return {
    main: [
      () => ({ ...tools({ type: 'text', text: 'I will run a command.' }, call), flagged: opts.flagged ?? false }),
      afterTool((r) => (r.isError ? `The command did not run: ${firstLine(r.text)}` : `The command finished: ${firstLine(r.text) || 'no output'}`)),
    ],
  };
}

/**
 * An AskUserQuestion dialog, then a text naming what the user chose.
 *
 * @example
 * api.script(askUserQuestion([{ question: 'Which color?', header: 'Color', options: [
 *   { label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }] }]));
 */
export function askUserQuestion(questions: Question[]): Scenario {
  const input = { questions: questions.map((q) => ({ ...q, multiSelect: q.multiSelect ?? false })) };
  return {
    main: [() => tools({ type: 'tool_use', name: 'AskUserQuestion', input }), afterTool((r) => `Noted. ${firstLine(r.text)}`)],
  };
}

/**
 * Plan approval, for a CLI started in plan mode (`args: ['--permission-mode', 'plan']`): the
 * plan written to the plan file the CLI names in its request (2.1.334 reads the plan from
 * there, not from the tool's input), then ExitPlanMode, then a text naming the answer.
 *
 * @example
 * api.script(planApproval('# Plan\n\n1. Write the file'));
 */
export function planApproval(plan: string): Scenario {
  return {
    main: [
      (req) => {
        const file = /[^"\s\\]*\/plans\/[^"\s\\]+\.md/.exec(JSON.stringify(req.body))?.[0];
        if (!file) throw new Error('planApproval: the request names no plan file; start the CLI in plan mode');
        return tools({ type: 'tool_use', name: 'Write', input: { file_path: file, content: plan } });
      },
      () => tools({ type: 'tool_use', name: 'ExitPlanMode', input: {} }),
      afterTool((r) => (r.isError ? `Back to planning: ${firstLine(r.text)}` : 'Plan approved.')),
    ],
  };
}

/**
 * ExitPlanMode with no plan written first, for a CLI started in plan mode: 2.1.334 then asks
 * only "Exit plan mode?"; then a text naming the answer (after "Yes"; "No" ends the turn with
 * "Rejected Claude's plan: No plan found" and nothing comes back).
 *
 * @example
 * api.script(exitPlanMode());
 */
export function exitPlanMode(): Scenario {
  return {
    main: [() => tools({ type: 'tool_use', name: 'ExitPlanMode', input: {} }), afterTool((r) => (r.isError ? `Still planning: ${firstLine(r.text)}` : 'Out of plan mode.'))],
  };
}

/**
 * Starts a background sub-agent (`Agent` with `run_in_background: true`), says it did, and
 * speaks again when the agent's completion notice arrives. The sub-agent itself answers
 * `agentText` after `agentMs`.
 *
 * @example
 * api.script(backgroundAgent('Count the files', { agentMs: 5_000 }));
 */
export function backgroundAgent(
  prompt: string,
  opts: { description?: string; agentMs?: number; agentText?: string } = {},
): Scenario {
  const input = { description: opts.description ?? 'Background work', prompt, run_in_background: true };
  return {
    main: [
      () => tools({ type: 'text', text: 'I will start a background agent.' }, { type: 'tool_use', name: 'Agent', input }),
      afterTool(() => 'The background agent is running.'),
      plainReply('The background agent finished.'),
    ],
    subagent: [() => ({ ...say(opts.agentText ?? 'Background work done.'), durationMs: opts.agentMs ?? 2_000 })],
  };
}

/**
 * A turn that reads the tool result it answers. If the request carries none (the user
 * refused and typed something new instead), it answers that prompt plainly.
 */
export function afterTool(text: (result: { isError: boolean; text: string }, req: ApiRequest) => string): TurnScript {
  return (req) => {
    const result = req.toolResults[0];
    return say(result ? text(result, req) : `You said: ${firstLine(req.prompt)}`);
  };
}

function say(text: string): Turn {
  return { blocks: [{ type: 'text', text }] };
}

function tools(...blocks: ScriptBlock[]): Turn {
  return { blocks, stopReason: 'tool_use' };
}

function firstLine(s: string): string {
  return (s.split('\n').find((l) => l.trim() !== '') ?? '').trim().slice(0, 120);
}
