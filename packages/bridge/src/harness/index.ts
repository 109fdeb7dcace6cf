/**
 * Screen readers: what a captured tmux pane says about the agent drawing it (state, open
 * dialog, the user's draft). Pure functions over capture-pane text; no I/O.
 */
export { detectHarnessFromScreen, readScreen } from './read-screen';
export { screenCommand } from './screen-command';
