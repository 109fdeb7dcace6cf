/** Secret masking for screens, titles and pushes. */
export { makeRedactor, redact, redactLines, type RedactLinesOptions, type Redactor } from './redact';
export { MASK } from './ansi';
