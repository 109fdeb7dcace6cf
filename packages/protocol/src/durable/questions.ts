import { z } from 'zod';
import { WireId } from './items';
import { LIMITS } from './limits';

/**
 * Questions of wire v1: four kinds. `version` grows when the agent changes a question in
 * place; an answer names the version it was given for, so a changed ask is never answered
 * blind. Counts and lengths are cut by the reader (`fitQuestion`), never refused.
 */
const Option = z.object({ id: WireId, label: z.string() });

/** Collie's words for the four permission actions; the agent's own label is the quiet line. */
export const PermissionAction = z.enum(['allow', 'always', 'deny', 'cancel']);
export type PermissionAction = z.infer<typeof PermissionAction>;

const questionBase = {
  id: WireId,
  version: z.number().int().nonnegative().default(0),
  title: z.string(),
  body: z.string().nullable().default(null),
  /** The tool call the question is about: drawn under it, and the key of the once-only push. */
  toolCall: z.object({ id: WireId, name: z.string() }).nullable().default(null),
  /** Epoch ms; past it the agent answers a late tap with `timed_out`. */
  expiresAt: z.number().finite().nullable().default(null),
  /** The agent's own push words: title at most 60 characters, line at most 120. */
  push: z.object({ title: z.string().nullable().default(null), line: z.string().nullable().default(null) }).nullable().default(null),
  /** The sender already cut or cleaned the words. */
  shortened: z.boolean().default(false),
  at: z.number().finite(),
};

export const PermissionQuestion = z.object({
  kind: z.literal('permission'),
  ...questionBase,
  options: z.array(z.object({ id: WireId, action: PermissionAction, label: z.string() })).min(1).max(1000),
});
export const ChoiceQuestion = z.object({
  kind: z.literal('choice'),
  ...questionBase,
  multiple: z.boolean().default(false),
  options: z.array(Option).min(1).max(1000),
});
export const TextQuestion = z.object({
  kind: z.literal('text'),
  ...questionBase,
  /** At most 2,000; 500 when not given. */
  limit: z.number().int().positive().default(LIMITS.textDefault),
  placeholder: z.string().nullable().default(null),
});
export const FormField = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), id: WireId, label: z.string(), required: z.boolean().default(false), limit: z.number().int().positive().default(LIMITS.textDefault) }),
  z.object({ kind: z.literal('choice'), id: WireId, label: z.string(), required: z.boolean().default(false), options: z.array(Option).min(1).max(1000) }),
  z.object({ kind: z.literal('toggle'), id: WireId, label: z.string(), required: z.boolean().default(false) }),
]);
export type FormField = z.infer<typeof FormField>;
export const FormQuestion = z.object({ kind: z.literal('form'), ...questionBase, fields: z.array(FormField).min(1).max(1000) });

export const KnownQuestion = z.discriminatedUnion('kind', [PermissionQuestion, ChoiceQuestion, TextQuestion, FormQuestion]);
export type KnownQuestion = z.infer<typeof KnownQuestion>;
export type QuestionInput = z.input<typeof KnownQuestion>;

/** A kind this version does not know: shown with its words, never answerable from the phone. */
export const UnknownQuestion = z.object({
  kind: z
    .string()
    .min(1)
    .max(LIMITS.id)
    .refine((k) => !['permission', 'choice', 'text', 'form'].includes(k), 'a known kind must match its own shape'),
  id: WireId,
  version: z.number().int().nonnegative().default(0),
  title: z.string(),
  body: z.string().nullable().default(null),
  toolCall: z.object({ id: WireId, name: z.string() }).nullable().default(null),
  expiresAt: z.number().finite().nullable().default(null),
  at: z.number().finite(),
});
/** What the reader accepts: a known kind, else an unknown kind with its words. */
export const WireQuestion = z.union([KnownQuestion, UnknownQuestion]);
export type WireQuestion = z.infer<typeof WireQuestion>;

/** An answer, one shape per kind. Form values: text as a string, choice as option ids, toggle as a boolean. */
export const WireAnswer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('permission'), option: WireId }),
  z.object({ kind: z.literal('choice'), options: z.array(WireId).min(1).max(LIMITS.choiceOptions) }),
  z.object({ kind: z.literal('text'), text: z.string().max(LIMITS.textMax) }),
  z.object({
    kind: z.literal('form'),
    values: z.record(WireId, z.union([z.string().max(LIMITS.textMax), z.array(WireId).max(LIMITS.choiceOptions), z.boolean()])),
  }),
]);
export type WireAnswer = z.infer<typeof WireAnswer>;

/** How a question ended, as the agent reports it. */
export const QuestionEnd = z.enum(['answered', 'decided', 'timed_out', 'stopped', 'closed']);
export type QuestionEnd = z.infer<typeof QuestionEnd>;
