import { nerveHttpStatus, type NerveErrorBody, type NerveErrorCode } from '@collie/protocol';

/** Nerve's one error class: a stable code, mapped to HTTP in one table. */
export class NerveError extends Error {
  constructor(
    readonly code: NerveErrorCode,
    message: string,
    readonly liveAgents?: string[],
  ) {
    super(message);
  }

  get status(): number {
    return nerveHttpStatus[this.code];
  }

  body(): NerveErrorBody {
    return { error: { code: this.code, message: this.message }, ...(this.liveAgents ? { live_agents: this.liveAgents } : {}) };
  }
}
