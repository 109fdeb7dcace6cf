import type * as acp from '@agentclientprotocol/sdk';
import { LIMITS } from '@collie/protocol';
import type { Conversation, ItemHandle, ToolHandle } from '@collie/durable-sdk';
import { blockText, planProgress, toolContent, toolHead, toolStatus } from './map';

/**
 * One conversation on the phone and the ACP session behind it: `session/update` notifications
 * become growing reply and thinking items, tool items, code items for diffs and the steps
 * progress. A chunk of another kind settles the growing item before it.
 */
export class Thread {
  sessionId: string | null;
  /** The session's modes, for the belt. */
  modes: acp.SessionModeState | null = null;
  /** The session's config options (the model choice among them), for the belt. */
  config: acp.SessionConfigOption[] | null = null;
  /** Called when the agent changed its mode or config options: the belt is drawn again. */
  beltChanged: () => void = () => undefined;
  private growing: { kind: 'reply' | 'thinking'; item: ItemHandle; size: number } | null = null;
  private readonly tools = new Map<string, { handle: ToolHandle; output: string; shown: number; diffs: Set<string> }>();
  /** Tool calls already settled (done, failed, denied): a late update does not make a second item. */
  private readonly settled = new Set<string>();
  /** When the agent last said anything in this session (the hang watchdog reads it). */
  lastHeard = Date.now();
  /** How many updates the session has sent: a turn that ends with none more said nothing. */
  heard = 0;
  /** While a prompt runs: gives it up (an agent that never answers it), so the next line is prompted. */
  abandon: (() => void) | null = null;

  constructor(
    readonly c: Conversation,
    sessionId: string | null,
  ) {
    this.sessionId = sessionId;
  }

  update(u: acp.SessionUpdate): void {
    this.lastHeard = Date.now();
    this.heard++;
    switch (u.sessionUpdate) {
      case 'agent_message_chunk':
        return this.chunk('reply', blockText(u.content));
      case 'agent_thought_chunk':
        return this.chunk('thinking', blockText(u.content));
      case 'user_message_chunk':
        // A loaded session replays the person's lines.
        this.settle();
        return this.c.user(blockText(u.content).slice(0, LIMITS.itemText));
      case 'tool_call':
        this.settle();
        return this.tool(u.toolCallId, u, true);
      case 'tool_call_update':
        return this.tool(u.toolCallId, u, false);
      case 'plan':
        return this.c.progress(planProgress(u.entries));
      case 'current_mode_update':
        if (this.modes) this.modes = { ...this.modes, currentModeId: u.currentModeId };
        return this.beltChanged();
      case 'config_option_update':
        this.config = Array.isArray(u.configOptions) ? u.configOptions : null;
        return this.beltChanged();
      case 'session_info_update':
        if (typeof u.title === 'string' && u.title.trim()) this.c.set({ title: u.title.slice(0, LIMITS.conversationTitle) });
        return;
      case 'notice':
        this.settle();
        return this.c.notice([u.title, u.description].filter(Boolean).join(': ').slice(0, 2_000));
      default:
        return;
    }
  }

  /** The growing items settle: the turn ended or something else came. */
  settle(): void {
    this.growing?.item.settle();
    this.growing = null;
  }

  /** The turn ended: tool calls still running are left as the agent left them, failed if it said nothing. */
  endTurn(stopped: boolean): void {
    this.settle();
    for (const [id, t] of this.tools) {
      if (stopped) t.handle.fail();
      this.settle1(id);
    }
  }

  /**
   * A permission request for a tool call the agent has not announced (the Codex adapter asks
   * first): its tool item starts from the request's head, so the card sits under it and a denial
   * marks it. Its content is the card's body, not output.
   */
  asked(call: acp.ToolCallUpdate): void {
    if (this.tools.has(call.toolCallId) || this.settled.has(call.toolCallId)) return;
    this.tool(call.toolCallId, { ...call, content: null, status: null }, true);
  }

  /** The permission card denied a tool call: its item says so. */
  denied(toolCallId: string): void {
    this.tools.get(toolCallId)?.handle.deny();
    this.settle1(toolCallId);
  }

  private chunk(kind: 'reply' | 'thinking', text: string): void {
    if (text === '') return;
    if (this.growing && (this.growing.kind !== kind || this.growing.size + text.length > LIMITS.itemText)) this.settle();
    if (!this.growing) {
      const item = kind === 'reply' ? this.c.reply('', { growing: true }) : this.c.thinking('', { growing: true });
      this.growing = { kind, item, size: 0 };
    }
    const room = LIMITS.itemText - this.growing.size;
    this.growing.item.append(text.slice(0, room));
    this.growing.size += Math.min(room, text.length);
  }

  private tool(id: string, u: acp.ToolCall | acp.ToolCallUpdate, fresh: boolean): void {
    if (this.settled.has(id)) return;
    let t = this.tools.get(id);
    if (!t) {
      if (this.tools.size >= 500) return;
      const head = toolHead(u);
      t = { handle: this.c.tool(head.name, head.input, id.slice(0, LIMITS.id)), output: '', shown: 0, diffs: new Set() };
      this.tools.set(id, t);
    } else if (fresh) return;
    const content = toolContent(u.content);
    for (const d of content.diffs) {
      if (t.diffs.has(d) || t.diffs.size >= 20) continue;
      t.diffs.add(d);
      this.c.code(d, 'diff');
    }
    // Content replaces the output as a whole; the item grows by what is new.
    if (content.text && content.text !== t.output && t.shown < LIMITS.toolOutput) {
      const more = content.text.startsWith(t.output) ? content.text.slice(t.output.length) : `\n${content.text}`;
      t.handle.output(more.slice(0, LIMITS.toolOutput - t.shown));
      t.shown += more.length;
      t.output = content.text;
    }
    const status = u.status ? toolStatus(u.status) : 'running';
    if (status === 'done') t.handle.done();
    else if (status === 'failed') t.handle.fail();
    if (status !== 'running') this.settle1(id);
  }

  private settle1(id: string): void {
    this.tools.delete(id);
    this.settled.add(id);
    if (this.settled.size > 2_000) this.settled.delete(this.settled.values().next().value ?? '');
  }
}
