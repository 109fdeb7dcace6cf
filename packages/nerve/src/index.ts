/** Nerve: Claude sessions over the Agent SDK with an exact, stoppable roster of their background work. */
export { startNerve, type Nerve, type StartOptions } from './nerve';
export { parseConfig, loadConfig, ConfigError, NerveConfig, SubagentSettings } from './config/config';
export { Gateway, type GatewayOptions } from './gateway/gateway';
export { Session } from './session/session';
export { Roster } from './roster/roster';
export { TurnQueue } from './queue/turn-queue';
export { Store } from './store/store';
export { openDb } from './store/db';
export { createApp } from './http/app';
export { parseArgs, EXIT } from './cli/args';
