/** What the benchmarks take from the test kit (bundled as dist/bench-kit.mjs). */
export { startTmux } from './tmux';
export { waitForScreen } from './wait';
export { startMessagesApi } from './messages-api';
export { startClaude } from './claude';
export { longTurn, plainReply } from './scenarios';
export { claudeInputReady, claudeWorking } from './claude-screen';
export { startPushService } from './push/push-service';
export { launchChromium, phoneContext } from './chromium';
export { testDevice } from './test-device';
export { AGENT_RIGS, type AgentRig, type AgentRigStarter } from './agents/rigs';
export { startBridge } from '@collie/bridge';
export { testBridgeOptions } from './bridge-options';
export { startFaultProxy } from './fault-proxy';
export { writeClaudeConfig } from './claude-config';
export { CLAUDE_QUIET_ENV, FAKE_API_KEY } from './claude';
export { smallDisk } from './small-disk';
