import { quotePath } from '../quote-path';

/**
 * The text a send with attachments types. With the agent's own syntax
 * (`AgentReader.attachment`, Claude Code: `@<path>`) the references go first, separated by
 * spaces, then the person's text. Without one, the paths (quoted when they hold spaces) go after the text (`Attached:`
 * when there is none): an absolute path first would start the text with `/`, which most agents
 * take as a command. Pure: the paths are already checked to be inside the uploads dir.
 *
 * @example
 * composeAttachments(['/s/uploads/u_1-a.png'], 'what is wrong here?', (p) => `@${p}`); // '@/s/uploads/u_1-a.png what is wrong here?'
 * composeAttachments(['/s/uploads/u_1-a.png'], 'what is wrong here?', undefined); // 'what is wrong here? /s/uploads/u_1-a.png'
 */
export function composeAttachments(paths: readonly string[], text: string, syntax: ((path: string) => string) | undefined): string {
  const empty = text.trim() === '';
  if (syntax) {
    const refs = paths.map(syntax).join(' ');
    return empty ? refs : `${refs} ${text}`;
  }
  return `${empty ? 'Attached:' : text} ${paths.map(quotePath).join(' ')}`;
}
