/** Pane process trees from /proc, and which agent runs in them. */
export { detectHarness, harnessOf } from './detect-harness';
export { parseCmdline, parseStat, type Proc, type StatLine } from './proc-stat';
export { fdLinksOf, linkOf, readQuick, readSmall } from './proc-read';
export { allProcesses, processTree, processTrees, statPasses, type ProcessTreeOptions } from './process-tree';
