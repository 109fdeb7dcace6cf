export { Discovery, type DiscoveryOptions } from './discovery';
export { TmuxServer, type PaneCapture } from './server';
export type { TmuxPane, TmuxServerInfo } from './formats';
export { quoteArg, commandLine, formatLiteral } from './quote';
export { inputOffCommands, inputOnCommands } from './left-off';
