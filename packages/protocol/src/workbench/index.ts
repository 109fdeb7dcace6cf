/**
 * Work from the phone: attachments, a pane's changes and review, renaming and closing panes,
 * quick replies, browsing files, new panes and worktrees. Every body and answer of their routes,
 * one file per feature.
 */
export * from './uploads';
export * from './changes';
export * from './pane-actions';
export * from './files';
export * from './new-pane';
export * from './worktrees';
