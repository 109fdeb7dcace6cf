import { z } from 'zod';

/**
 * Where a usage figure comes from: the agent's own record (`transcript`: Claude Code's
 * transcript, Codex's session log, Gemini CLI's chat file, OpenCode's database, pi's session
 * file) or its screen (`screen`: a limit message the agent draws). Nothing is estimated.
 */
export const UsageSource = z.enum(['transcript', 'screen']);
export type UsageSource = z.infer<typeof UsageSource>;

/** A usage limit as the agent recorded or showed it. */
export const UsageLimit = z.object({
  /** `reached`: the agent says it cannot work until `resetsAt`. */
  state: z.enum(['ok', 'reached']),
  /** The limit's used share, 0..1, where the agent records one (Codex's `rate_limits`). */
  usedShare: z.number().min(0).max(1).optional(),
  /** The window's length in minutes, where recorded. */
  windowMinutes: z.number().int().positive().optional(),
  /** When the limit resets, ISO 8601, where the agent records or shows it. */
  resetsAt: z.string().optional(),
  source: UsageSource,
});
export type UsageLimit = z.infer<typeof UsageLimit>;

/**
 * What a pane's agent recorded of its model and usage. Every field is optional: only what
 * the agent recorded is given.
 */
export const PaneUsage = z.object({
  /** The model of the latest turn, as the agent recorded it (`claude-opus-4-5-20251101`). */
  model: z.string().optional(),
  /** Tokens in the context at the latest turn (input + cache reads + cache writes, as recorded). */
  contextTokens: z.number().int().nonnegative().optional(),
  /** The model's context window in tokens, where the agent records it or the model is known. */
  contextWindow: z.number().int().positive().optional(),
  /** Where `contextWindow` comes from: the agent's record, or Collie's table of known models (Claude Code records none). */
  windowFrom: z.enum(['transcript', 'table']).optional(),
  /** The session's tokens so far (all kinds, summed over turns). */
  sessionTokens: z.number().int().nonnegative().optional(),
  /** The session's cost in US dollars, where the agent records one. */
  costUsd: z.number().nonnegative().optional(),
  limit: UsageLimit.optional(),
  source: UsageSource,
  /** Epoch ms of the record the figures were read from. */
  at: z.number(),
});
export type PaneUsage = z.infer<typeof PaneUsage>;
