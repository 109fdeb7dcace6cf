import { randomBytes, randomUUID } from 'node:crypto';

/** `ag_` + 12 hex (spec "Records"). */
export const newAgentId = (): string => `ag_${randomBytes(6).toString('hex')}`;
export const newQueueId = (): string => `q_${randomBytes(6).toString('hex')}`;
export const newSessionId = (): string => `ses_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
