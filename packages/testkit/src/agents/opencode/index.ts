/** The real OpenCode TUI offline against the scripted chat-completions API. */
export { startOpencode, opencodeBinary, type OpencodePane, type StartOpencodeOptions } from './opencode';
export { writeOpencodeConfig, OPENCODE_MODEL, type OpencodeConfigOptions } from './config';
export { opencodeReady, opencodeWorking, opencodePermission, opencodeQuestion } from './screen';
export { opencodeCaptureDriver } from './capture';
