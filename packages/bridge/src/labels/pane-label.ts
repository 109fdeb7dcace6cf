/** The label a pane shows on the phone and in walky headers. */
import { basename } from 'node:path';
import { gitLabel, type GitLabeler } from './git-label';

/** What {@link paneLabel} looks at. */
export interface PaneLabelInput {
  readonly cwd: string;
  readonly title: string;
}

/**
 * `<repo>#<branch>` from git in the pane's cwd; else the pane's title; else the cwd's last
 * directory name (the cwd itself for `/`).
 *
 * @example
 * await paneLabel({ cwd: '/home/ada/src/collie', title: 'ada-laptop' }); // 'collie#main'
 * await paneLabel({ cwd: '/tmp', title: '' }); // 'tmp'
 */
export async function paneLabel(pane: PaneLabelInput, labeler: GitLabeler = gitLabel): Promise<string> {
  const git = pane.cwd === '' ? null : await labeler(pane.cwd);
  if (git) return git;
  const title = pane.title.trim();
  if (title !== '') return title;
  return basename(pane.cwd) || pane.cwd;
}
