/** Pane labels: `<repo>#<branch>` from git's files, else the pane's title. */
export { createGitLabeler, gitLabel, readGitLabel, type GitLabeler, type GitLabelerOptions } from './git-label';
export { paneLabel, type PaneLabelInput } from './pane-label';
