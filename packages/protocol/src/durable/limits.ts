/**
 * The numbers of durable agents wire v1. The page "Durable agents on the phone" fixes the ones
 * a person sees (buttons, icons, option counts, text limits, push lengths, the closed list's
 * page); the rest bound what one frame may carry so a hostile agent cannot grow the bridge.
 */
export const WIRE_VERSION = 1;

export const LIMITS = {
  /** The name a durable agent gives itself, and its runtime. */
  name: 40,
  conversationTitle: 120,
  subtitle: 200,
  workspace: 200,
  /** Belt buttons of the agent's own, after Steer and Stop. */
  buttons: 4,
  buttonLabel: 16,
  starters: 12,
  starterLabel: 60,
  starterLine: 120,
  /** Text of one chat item (reply, thinking, notice, markdown, code, user). */
  itemText: 100_000,
  toolOutput: 20_000,
  toolInput: 2_000,
  toolName: 80,
  language: 30,
  url: 2_048,
  linkLabel: 200,
  questionTitle: 200,
  questionBody: 4_000,
  permissionOptions: 6,
  choiceOptions: 8,
  optionLabel: 200,
  /** A text question's default limit, and the most an agent may raise it to. */
  textDefault: 500,
  textMax: 2_000,
  formFields: 6,
  fieldLabel: 100,
  pushTitle: 60,
  pushLine: 120,
  /** The closed list is read this many at a time. */
  closedPage: 100,
  progressSteps: 20,
  stepLabel: 80,
  progressLabel: 80,
  reason: 300,
  /** A user line from the phone (the same bound as a send to a pane). */
  message: 20_000,
  /** Ids chosen by the agent: conversations, items, questions, options, buttons, starters. */
  id: 200,
  /** The bridge keeps this many items per open conversation; older ones drop off. */
  itemsKept: 500,
  /** Open conversations the bridge holds per durable agent; later ones are not shown. */
  openConversations: 100,
  /** Bytes (JSON) one durable agent may add to the snapshot; past it its oldest items drop. */
  agentBytes: 2_000_000,
  /** One line of the event stream; a longer line is dropped whole, and the stream goes on. */
  frameBytes: 4 * 1024 * 1024,
} as const;

/** The 12 icons a belt button may name; any other name draws no icon. */
export const BUTTON_ICONS = ['play', 'pause', 'check', 'x', 'refresh', 'archive', 'flag', 'star', 'send', 'note', 'search', 'more'] as const;
export type ButtonIcon = (typeof BUTTON_ICONS)[number];

/** Header names of the wire (lower case, as Node hands them over). */
export const WIRE_HEADER = 'collie-wire';

/**
 * The words shown when the two sides speak different wire versions. The page gives them for a
 * newer agent; the same sentence, sides swapped, serves the other way round.
 */
export function versionWords(agentWire: number, collieWire: number = WIRE_VERSION): string {
  return agentWire > collieWire
    ? `Program speaks wire v${agentWire}, this Collie speaks v${collieWire}. Update Collie, or the durable agent's SDK.`
    : `Program speaks wire v${agentWire}, this Collie speaks v${collieWire}. Update the durable agent's SDK, or Collie.`;
}

/** The note at the foot of the conversation list for a refused wire version (the page's words). */
export function versionListNote(agentWire: number, collieWire: number = WIRE_VERSION): string {
  return agentWire > collieWire
    ? `The durable agent speaks wire v${agentWire}, this Collie speaks v${collieWire}. Update Collie, or the agent's SDK.`
    : `The durable agent speaks wire v${agentWire}, this Collie speaks v${collieWire}. Update the agent's SDK, or Collie.`;
}

/** What one durable agent lost to the caps above, counted since it attached. */
export interface KeptCounts {
  conversations: number;
  itemsPerConversation: number;
  itemsForBytes: number;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The sentence the phone shows on a durable agent that sent more than the bridge keeps, or
 * null when it lost nothing. Pure.
 */
export function keptWords(k: KeptCounts): string | null {
  const parts: string[] = [];
  if (k.conversations > 0) parts.push(`${plural(k.conversations, 'conversation', 'conversations')} past the first ${LIMITS.openConversations} open ones ${k.conversations === 1 ? 'is' : 'are'} not shown`);
  if (k.itemsPerConversation > 0) parts.push(`${plural(k.itemsPerConversation, 'item', 'items')} past the newest ${LIMITS.itemsKept} of a conversation ${k.itemsPerConversation === 1 ? 'was' : 'were'} dropped`);
  if (k.itemsForBytes > 0) parts.push(`${plural(k.itemsForBytes, 'older item was', 'older items were')} dropped to keep it under ${LIMITS.agentBytes / 1_000_000} MB on the phone`);
  if (parts.length === 0) return null;
  return `This durable agent sent more than Collie keeps: ${parts.join('; ')}. Close conversations in the agent to see the others.`;
}

/** The first line of a conversation whose older items were dropped to keep the agent under its bytes. */
export const KEPT_NOTICE = `This durable agent sent more than Collie keeps: older items of this conversation were dropped (at most ${LIMITS.agentBytes / 1_000_000} MB per durable agent on the phone).`;
