import { z } from 'zod';
import { SendReceipt } from './send';
import { DurableSnapshot } from './durable/model';
import { PaneUsage } from './usage';

/** Which agent program draws a pane. `shell` is anything else. */
export const Harness = z.enum(['claude', 'codex', 'opencode', 'gemini', 'pi', 'omp', 'aider', 'shell']);
export type Harness = z.infer<typeof Harness>;

/**
 * The kind of modal on screen. `menu` is a user-opened picker (the `/model` picker):
 * not the agent asking, but nothing may be typed into it either. `setup`: a question the
 * agent asks before a session can start (which API key, a default mode, a theme, notes to
 * acknowledge).
 */
export const Dialog = z.enum([
  'permission',
  'select',
  'multiselect',
  'wizard',
  'review',
  'preview',
  'plan',
  'trust',
  'menu',
  'setup',
]);
export type Dialog = z.infer<typeof Dialog>;

/** What one screen says on its own, without history. */
export const ScreenState = z.enum(['idle', 'working', 'blocked', 'unknown']);
export type ScreenState = z.infer<typeof ScreenState>;

/**
 * The reading of one captured screen by a harness's screen reader.
 * `draft` is the text the user typed into the input box (a dim ghost suggestion is not
 * a draft; Claude's `[Pasted text #N +M lines]` token is), or null when the box is empty.
 */
export const ScreenReading = z.object({
  harness: Harness,
  state: ScreenState,
  dialog: Dialog.nullable(),
  draft: z.string().nullable(),
  /** Why the state is `unknown` when an agent's screen matched none of its reader's shapes, in words. */
  reason: z.string().optional(),
});
export type ScreenReading = z.infer<typeof ScreenReading>;

/** One option of a dialog card, numbered as the agent numbers it on screen (1-based). */
export const CardOption = z.object({
  n: z.number().int().positive(),
  label: z.string(),
  description: z.string().nullable(),
  /** Multi-select: ticked now; null where the dialog has no checkboxes. */
  checked: z.boolean().nullable(),
  /** The option that asks for typed text ("Type something", "No, and tell Claude what to do differently"). */
  freeText: z.boolean(),
  /**
   * Where the agent's pointer rests, when its screen shows that and its keys start from there
   * (OpenCode's permission buttons move by ←/→ and have no digits). Absent when unknown.
   */
  focused: z.boolean().optional(),
  /**
   * The option also takes words for the agent, optionally (Claude's `Tab to amend`): the label
   * it shows then, e.g. `No, and tell Claude what to do differently`. Absent where it does not.
   */
  amend: z.string().optional(),
});
export type CardOption = z.infer<typeof CardOption>;

/**
 * A dialog the agent raised, as a card: what it asks and the options to tap. The signature
 * is a hash of what the card was made from; an answer carries it back, and the bridge
 * presses nothing unless the pane still shows the same dialog.
 */
export const DialogCard = z.object({
  kind: Dialog,
  signature: z.string(),
  /** The dialog's heading (e.g. "Bash command", the question's header chip). */
  title: z.string(),
  /** Context lines shown above the question (the command, the file, the plan's first lines). */
  body: z.array(z.string()),
  question: z.string(),
  options: z.array(CardOption),
  /** Multi-question wizards: the tabs across the top, and which one shows. */
  tabs: z.array(z.object({ label: z.string(), answered: z.boolean() })),
  activeTab: z.number().int().nullable(),
  /** False for a menu the user opened: shown, never answered by a digit. */
  answerable: z.boolean(),
});
export type DialogCard = z.infer<typeof DialogCard>;

/**
 * A pane's state as the engine keeps it. `done`: a turn ended and nobody has opened the
 * pane since. `unknown`: not an agent, or the screen could not be read.
 */
export const PaneState = z.enum(['idle', 'working', 'blocked', 'done', 'unknown']);
export type PaneState = z.infer<typeof PaneState>;

/** One pane as the phone sees it. */
export const Pane = z.object({
  /** Stable id within the bridge: `<server>:<tmux pane id>`, e.g. `default:%7`. */
  id: z.string().min(1),
  /** Walky address: `<member>/<pane>#<token>`, e.g. `local/%7#ab12` or `local/work:%7#ab12`. */
  address: z.string().min(1),
  token: z.string().length(4),
  /** tmux server socket name (`default` for the user's default server). */
  server: z.string(),
  /** tmux's own pane id, `%7`. */
  tmuxId: z.string().regex(/^%\d+$/),
  machine: z.string(),
  sessionId: z.string(),
  sessionName: z.string(),
  windowId: z.string(),
  windowIndex: z.number().int(),
  windowName: z.string(),
  paneIndex: z.number().int(),
  active: z.boolean(),
  cwd: z.string(),
  title: z.string(),
  /** The foreground command tmux reports for the pane. */
  command: z.string(),
  pid: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  harness: Harness,
  /** `<repo>#<branch>` from git in the cwd, else the pane title; or the name given with Rename. */
  label: z.string(),
  /** True when `label` is a name the person gave (Rename): shown whole, never split at a `#`. */
  named: z.boolean().optional(),
  state: PaneState,
  /** Epoch ms when the pane entered `state`. */
  since: z.number(),
  dialog: Dialog.nullable(),
  /** The dialog as a card with its options, when the harness's reader can parse it. */
  card: DialogCard.nullable(),
  draft: z.string().nullable(),
  /** Why the pane reads `unknown` ("Collie cannot read this Codex screen"); absent when it reads. */
  reason: z.string().optional(),
  /** On a crew's lead: the member that owns this pane, whether the lead reaches it now, and when it last did. */
  member: z.object({ name: z.string(), reachable: z.boolean(), lastSeen: z.number() }).optional(),
  /** The agent's model, context and usage limit as its own records say (see docs/api.md); absent when nothing is recorded. */
  usage: PaneUsage.optional(),
});
export type Pane = z.infer<typeof Pane>;

/** One tmux server the bridge watches. */
export const Server = z.object({
  name: z.string(),
  socket: z.string(),
  pid: z.number().int().nullable(),
  connected: z.boolean(),
});
export type Server = z.infer<typeof Server>;

/** `GET /api/snapshot`: the whole model. `seq` is the last event folded into it. */
export const Snapshot = z.object({
  version: z.literal(1),
  /** Names this bridge process: sequence numbers of another run mean nothing here. */
  run: z.string(),
  seq: z.number().int().nonnegative(),
  machine: z.string(),
  servers: z.array(Server),
  panes: z.array(Pane),
  /** The latest sends per pane, newest last. */
  sends: z.array(SendReceipt),
  /** Durable agents, their open conversations and the items of each (see docs/wire-v1.md). */
  durable: DurableSnapshot.optional(),
});
export type Snapshot = z.infer<typeof Snapshot>;
