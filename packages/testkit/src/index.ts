/** The Collie test kit: real tmux, the real Claude Code TUI against a scripted Messages API, Chromium. */
export { startTmux, listSessions, type TmuxServer, type StartTmuxOptions, type PaneOptions, type SessionOptions } from './tmux';
export { waitForScreen, type ScreenPredicate, type WaitForScreenOptions } from './wait';
export { tempDir, type TempDir } from './temp-dir';
export { smallDisk, type SmallDisk } from './small-disk';
export { artifactPath, repoRoot } from './artifacts';
export { launchChromium, phoneContext, CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
export {
  startMessagesApi,
  type MessagesApi,
  type MessagesApiOptions,
  type ApiRequest,
  type TurnScript,
  type Scenario,
} from './messages-api';
export { decodeRequest, humanText, type DecodedRequest, type RequestKind, type ToolResult } from './messages-request';
export type { Turn, ScriptBlock, TextBlock, ToolUseBlock, StopReason } from './messages-wire';
export { sideReply } from './side-reply';
export { plainReply, longTurn, heldTurn, type HeldTurn, bashPermission, askUserQuestion, backgroundAgent, afterTool, planApproval, exitPlanMode, type Question } from './scenarios';
export { startClaude, claudeBinary, claudeLauncher, CLAUDE_QUIET_ENV, FAKE_API_KEY, type ClaudePane, type StartClaudeOptions } from './claude';
export { claudeOffline } from './claude-offline';
export { writeClaudeConfig, type ClaudeConfigOptions, type ClaudeDialogs, type PermissionsMode } from './claude-config';
export { claudeInputReady, claudeInputText, claudeWorking, claudePermissionDialog, claudeQuestionDialog } from './claude-screen';
export { runDemo, startDemo, type Demo, type DemoOptions, type DemoPane, type RunDemoOptions } from './demo';
export { demoLauncherName } from './demo-launchers';
export { testBridgeOptions } from './bridge-options';
export { startScriptedApi, type AgentApi, type AgentRequest, type AgentTurn, type AgentTurnScript, type AgentWire } from './agents/scripted-api';
export { agentReply, agentLongTurn, agentShell, agentTool } from './agents/turns';
export { startAgentPane, type AgentPane, type AgentLaunch } from './agents/pane';
export { startCodex, startResponsesApi, writeCodexConfig, codexScript, codexMissing, CODEX_MODEL, CODEX_FAKE_KEY, type StartCodexOptions } from './agents/codex/codex';
export { codexInputReady, codexInputText, codexWorking, codexApproval } from './agents/codex/screen';
export { codexCaptureDriver } from './agents/codex/capture';
export { testDevice, type TestDevice } from './test-device';
export { startGemini, startGeminiApi, writeGeminiConfig, geminiScript, geminiMissing, type StartGeminiOptions } from './agents/gemini/gemini';
export { geminiInputReady, geminiInputText, geminiWorking, geminiApproval, geminiResumeLoaded } from './agents/gemini/screen';
export { geminiCaptureDriver } from './agents/gemini/capture';
export * from './agents/openai-chat/index';
export * from './agents/opencode/index';
export { runCapture } from './capture/run';
export { captureReadme, type CaptureDriver, type CaptureLabel, type CaptureResult, type CaptureSession } from './capture/driver';
export * from './agents/pi/index';
export { acpScriptAgent, geminiAcpAgent, claudeAcpAgent, claudeAcpScript, codexAcpAgent, codexAcpBinary, CODEX_ACP_MODEL, type AcpAgentCommand } from './agents/acp/acp';
export { COLOUR_QUESTION, SIZE_QUESTION } from './agents/questions';
export { startPushService, type PushServiceStandIn, type ReceivedPush, type StandInSubscription } from './push/push-service';
export { checkVapid, type VapidCheck } from './push/vapid-check';
export { collieCli, crewCli, crewBridge, freePort, rawCrew, rawCrewAt } from './crew-kit';
export { serveWork, untilServing, type ServeWork } from './serve-process';
export { Started } from './started';
export { startFaultProxy, type FaultProxy } from './fault-proxy';
export * from './agents/omp/index';
export { AGENT_RIGS, type AgentRig, type AgentRigStarter } from './agents/rigs';
// Known usage figures of the scripted APIs (usage tests compare what agents record with them).
export { CODEX_USAGE } from './agents/codex/responses-wire';
export { GEMINI_USAGE } from './agents/gemini/gemini-wire';
export type { TurnError, TurnUsage } from './messages-wire';
export { USAGE_AGENTS, type UsageAgent, type UsageSession, type ReportedUsage } from './agents/usage-sessions';
