/**
 * Screen readers: what a captured tmux pane says about the agent drawing it (state, open
 * dialog, the user's draft), and the dialog as a card with the keys that answer it. Pure
 * functions over capture-pane text; no I/O.
 */
export { detectHarnessFromScreen, readScreen } from './read-screen';
export { screenCommand } from './screen-command';
export { answerPlan, readCard } from './card';
