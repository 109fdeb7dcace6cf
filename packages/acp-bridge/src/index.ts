/**
 * Any Agent Client Protocol agent as a Collie durable agent (docs/acp.md): `runAcp` spawns the
 * agent over stdio, serves it on wire v1 and lists it in sources.json.
 */
export { AcpAgent, type AcpAgentOptions } from './acp-agent';
export { runAcp, type Registry, type RunOptions, type Running } from './run';
export { startLink, type AgentCommand, type Link } from './link';
export * as mapping from './map';
export { elicitationCard, elicitationResponse } from './elicit';
export { inside } from './files';
export { durableAcp, agentName, AcpCommandError, type AcpCommand } from './cli';
