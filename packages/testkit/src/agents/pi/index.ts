/** The real pi TUI offline against the scripted chat-completions API. */
export { startPi, type StartPiOptions } from './pi';
export { writePiConfig, piPackageDir, SCRIPTED_PRICES, type PiConfigOptions } from './config';
export { piReady, piWorking, piPermission } from './screen';
export { piCaptureDriver } from './capture';
