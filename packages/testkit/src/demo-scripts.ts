/**
 * Turn scripts that never run dry, for `collie demo`: each answers whatever the pane sends
 * next, however long the demo stays up.
 */
import type { TurnScript } from './messages-api';

/**
 * A turn that never ends: it streams for `stepMs`, then reads `notesPath` (a read inside the
 * working folder needs no permission), and the tool result starts the next step. Interrupted,
 * it starts over at the next prompt.
 */
export function endlessWork(notesPath: string, stepMs: number): TurnScript {
  let step = 0;
  return () => {
    step += 1;
    return {
      blocks: [
        { type: 'text', text: `Step ${step}: working through the migration plan, one module at a time. Checking the notes again.` },
        { type: 'tool_use', name: 'Read', input: { file_path: notesPath } },
      ],
      durationMs: stepMs,
    };
  };
}

/** Every new prompt asks permission to run `command`; a tool result gets a closing line. */
export function permissionEveryPrompt(command: string): TurnScript {
  return (req) => {
    const result = req.toolResults[0];
    if (result) {
      return { blocks: [{ type: 'text', text: result.isError ? 'Understood, I did not run it.' : 'Done: the build folder is clean.' }] };
    }
    return {
      blocks: [
        { type: 'text', text: 'I need to clear the build output first.' },
        { type: 'tool_use', name: 'Bash', input: { command, description: 'Remove the build output' } },
      ],
    };
  };
}

/** Answers each prompt at once, quoting it. */
export function echoReply(): TurnScript {
  return (req) => ({ blocks: [{ type: 'text', text: `Hello! You said: ${req.prompt || '(nothing)'}` }] });
}
