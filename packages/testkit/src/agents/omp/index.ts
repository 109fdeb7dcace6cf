/** The real omp TUI (oh-my-pi, under Bun) offline against the scripted chat-completions API. */
export { startOmp, type StartOmpOptions } from './omp';
export { writeOmpConfig, ompCommand, type OmpCommand, type OmpConfigOptions } from './config';
export { ompReady, ompWorking, ompApproval } from './screen';
export { ompCaptureDriver } from './capture';
