/** Configuration, paths and the state directory's files. */
export { parseDotenv, type DotenvProblem, type DotenvResult } from './dotenv';
export { loadConfig, type Config, type LoadConfigDeps, type LoadConfigResult } from './load-config';
export { configDirOf, instanceName, stateDirOf, tmuxDirsOf, type Env } from './paths';
export { AUDIT_MAX_BYTES, appendAudit, auditWritten, clipText, type AuditEntry } from './audit-log';
export { AuditFlood, refusalKind } from './audit-flood';
export { ensureStateDir } from './state-dir';
export { writeFileAtomic } from './write-file-atomic';
