export { agentVersion } from './agent-version';
export { UnreadScreens, readSeen, unreadDir, SAMPLE_CHARS, MAX_SAMPLES, type SeenAgents } from './unread-screens';
export { unreadHook } from './read-hook';
export { agentsCheck } from './doctor-check';
