/** The label a pane shows on the phone and in walky headers. */
import { basename } from 'node:path';
import { gitLabel, type GitLabeler } from './git-label';

/** What {@link paneLabel} looks at. */
export interface PaneLabelInput {
  readonly cwd: string;
  readonly title: string;
}

/**
 * `<repo>#<branch>` from git in the pane's cwd; else the pane's title ({@link titleWords});
 * else the cwd's last directory name (the cwd itself for `/`).
 *
 * @example
 * await paneLabel({ cwd: '/home/ada/src/collie', title: 'ada-laptop' }); // 'collie#main'
 * await paneLabel({ cwd: '/tmp', title: '' }); // 'tmp'
 */
export async function paneLabel(pane: PaneLabelInput, labeler: GitLabeler = gitLabel): Promise<string> {
  const git = pane.cwd === '' ? null : await labeler(pane.cwd);
  if (git) return git;
  const title = titleWords(pane.title);
  if (title !== '') return title;
  return basename(pane.cwd) || pane.cwd;
}

/**
 * A title without the state glyph an agent puts before it: Claude Code titles its pane
 * `✳ Claude Code` at rest and turns the glyph into a spinner while it works, so the label
 * would change with the state. A leading run of symbols followed by a space is dropped; a
 * title that is only symbols stays as it is.
 *
 * @example
 * titleWords('✳ Claude Code'); // 'Claude Code'
 * titleWords('⠂ Fix the login'); // 'Fix the login'
 */
export function titleWords(title: string): string {
  const trimmed = title.trim();
  const words = trimmed.replace(/^[^\p{L}\p{N}]+\s+/u, '');
  return words === '' ? trimmed : words;
}
