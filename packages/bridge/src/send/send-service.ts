import type { AnswerRequest, BoxRequest, DialogCard, KeyName, SendReceipt } from '@collie/protocol';
import { OUTCOME } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import { AGENTS } from '../harness/agents';
import { answerPlan } from '../harness/card';
import type { PaneNow, PaneTracker } from '../panes/pane-tracker';
import type { Redactor } from '../redact';
import { decide } from './decide';
import { LaterSends, type SendLater } from './later';
import { answerWithText } from './free-text';
import { tmuxKeys } from './keys';
import { NotSaved, type ReceiptStore, type StoredSend } from './receipt-store';
import { boxForm } from './box-match';
import { actOnBox } from './box-action';
import { SendRefusal, sameRequest } from './refusal';
import { sanitizeText, summarize } from './sanitize';
import { pressKeys } from './typist';
import { TextQueue, type Left } from './text-queue';

export interface SendServiceDeps {
  store: ReceiptStore;
  hub: EventHub;
  locate(paneId: string): { tracker: PaneTracker; tmuxId: string } | null;
  redact: Redactor;
  /** How long a send may wait for its pane before it is given up (10 minutes by default). */
  holdMs: number;
  bufferDir: string;
  now?: () => number;
}

/** A cancel's answer: the receipt as it stands, or why it could not be cancelled. */
export type CancelResult =
  | { readonly ok: true; readonly receipt: SendReceipt }
  | { readonly ok: false; readonly code: 'not_found' | 'conflict'; readonly receipt: SendReceipt | null };

/** Claude's dialogs ignore keys for a moment after they open (against stray presses). */
export const DIALOG_SETTLE_MS = 600;

/**
 * The send protocol: one receipt per request id, written before anything is typed; text
 * sends to a pane typed one after another (FIFO), each held while the pane cannot take it;
 * every key press (a send's paste and Enter, the keys pad, a card's answer) in one lane per
 * pane so nothing is typed into anything else.
 */
export class SendService {
  private readonly pressTail = new Map<string, Promise<unknown>>();
  private readonly stopped = new AbortController();
  private readonly now: () => number;
  private readonly later: LaterSends;
  private readonly texts: TextQueue;

  constructor(private readonly d: SendServiceDeps) {
    this.now = d.now ?? Date.now;
    this.texts = new TextQueue({ ...d, now: this.now, stopped: this.stopped.signal, inLane: (id, fn) => this.inLane(id, fn), typist: (at) => this.typist(at), update: (id, state, outcome) => this.update(id, state, outcome), finish: (id, state, outcome, left) => this.finish(id, state, outcome, left) });
    this.later = new LaterSends({ store: d.store, hub: d.hub, now: this.now, inLane: (id, fn) => this.inLane(id, fn), record: (s) => this.record(s), run: (id, paneId) => void this.texts.run(id, paneId) });
  }

  /**
   * Sends that were waiting when the bridge stopped wait again (nothing of them was typed).
   * A pane a crash caught mid-send was switched on as its server was attached (`mux/tmux/left-off.ts`).
   */
  resume(): void {
    for (const s of this.d.store.waiting()) if (s.text !== undefined && s.receipt.state !== 'scheduled') void this.texts.run(s.receipt.requestId, s.receipt.paneId);
    this.later.arm(); // scheduled sends: their times, past ones at once
  }

  stop(): void {
    this.stopped.abort();
    this.later.stop();
  }

  /** Whether a send to this pane waits for its usage-limit reset (the "Ready again" push asks). */
  waitsForReset(paneId: string, resetsAt?: string): boolean {
    return this.later.waitsForReset(paneId, resetsAt);
  }

  /** Whether this request id has a receipt: its request is answered from it even once the pane is gone. */
  known(requestId: string): boolean {
    return this.d.store.get(requestId) !== undefined;
  }

  /**
   * `POST /api/panes/:id/send`, and the way any part of the bridge types a message into a
   * pane. Resolves with the receipt once its first decision is made (an idle pane: after
   * typing); later changes are `send.updated` events. Throws `SendRefusal` for text that is
   * empty once cleaned, or a request id already used for another request. With `later` (`at`
   * or `when`) it waits, `scheduled`, until its time (`later.ts`).
   *
   * @example
   * const r = await sends.send('default:%7', 'run the tests', randomUUID());
   * if (r.state === 'typed') …
   */
  async send(paneId: string, text: string, requestId: string, later: SendLater = {}, summary?: string): Promise<SendReceipt> {
    const clean = sanitizeText(text);
    const atMs = later.at !== undefined ? this.later.atOf(later.at) : null;
    const wait = later.when ?? (atMs !== null ? `at ${atMs}` : undefined);
    const fingerprint = this.d.store.fingerprint('text', wait === undefined ? clean : `${clean}\0${wait}`);
    const known = this.d.store.get(requestId);
    if (known) return sameRequest(known, paneId, 'text', fingerprint);
    if (clean === '') throw new SendRefusal('empty_text', 'bridge: text: nothing is left once control characters are removed');
    if (clean.trim() === '') throw new SendRefusal('empty_text', 'bridge: text: only white space; there is nothing to send');
    const due = atMs ?? (later.when === 'limit-reset' ? this.later.resetFor(paneId) : null);
    if (due !== null) {
      this.later.check(due, later);
      return this.untyped(requestId, async () => {
        const receipt = await this.record({ receipt: this.later.receipt(this.fresh(requestId, paneId, 'text', summarize(summary ?? clean)), due, later.when), text: clean, fingerprint });
        this.later.arm();
        return receipt;
      });
    }
    return this.untyped(requestId, async () => {
      await this.record({ receipt: this.fresh(requestId, paneId, 'text', summarize(summary ?? clean)), text: clean, fingerprint });
      return this.texts.run(requestId, paneId);
    });
  }

  /** `POST /api/panes/:id/keys`: pressed as asked, in the pane's lane. */
  async keys(paneId: string, keys: readonly KeyName[], requestId: string): Promise<SendReceipt> {
    const fingerprint = this.d.store.fingerprint('keys', keys.join(' '));
    const known = this.d.store.get(requestId);
    if (known) return sameRequest(known, paneId, 'keys', fingerprint);
    return this.untyped(requestId, async () => {
      await this.record({ receipt: this.fresh(requestId, paneId, 'keys', keys.join(' ')), keys: [...keys], fingerprint });
      return this.inLane(paneId, async () => {
        const at = this.d.locate(paneId);
        const now = at ? await at.tracker.readNow(at.tmuxId) : null;
        if (!at || !now) return this.finish(requestId, 'not_sent', OUTCOME.paneGone);
        await this.update(requestId, 'typing', OUTCOME.typing);
        const ok = await pressKeys(at.tracker, at.tmuxId, tmuxKeys(keys, now.harness));
        return ok ? this.finish(requestId, 'typed', OUTCOME.pressed) : this.finish(requestId, 'not_sent', OUTCOME.paneGone);
      });
    });
  }

  /** `POST /api/panes/:id/answer`: press the card's keys only if the pane still shows that ask. */
  async answer(paneId: string, req: AnswerRequest): Promise<SendReceipt> {
    const fingerprint = this.d.store.fingerprint('answer', JSON.stringify([req.signature, req.option, req.toggle, req.text]));
    const known = this.d.store.get(req.request_id);
    if (known) return sameRequest(known, paneId, 'answer', fingerprint);
    const what = req.option !== undefined ? `option ${req.option}${req.text !== undefined ? ' with words' : ''}` : `tick ${req.toggle?.join(', ')}`;
    return this.untyped(req.request_id, async () => {
      await this.record({ receipt: this.fresh(req.request_id, paneId, 'answer', what), fingerprint });
      return this.inLane(paneId, async () => {
        const at = this.d.locate(paneId);
        let now = at ? await at.tracker.readNow(at.tmuxId) : null;
        if (!at || !now) return this.finish(req.request_id, 'not_sent', OUTCOME.paneGone);
        const wait = now.cardSince + DIALOG_SETTLE_MS - this.now();
        if (wait > 0 && now.card?.signature === req.signature) {
          await new Promise((r) => setTimeout(r, wait));
          now = await at.tracker.readNow(at.tmuxId);
          if (!now) return this.finish(req.request_id, 'not_sent', OUTCOME.paneGone);
        }
        const card = now.card;
        if (!card || card.signature !== req.signature) return this.finish(req.request_id, 'not_sent', OUTCOME.askChanged);
        if (card.kind === 'menu') return this.finish(req.request_id, 'not_sent', OUTCOME.notAnswerable);
        if (req.text !== undefined && req.option !== undefined) return this.answerText(req.request_id, at, now, card, req.option, req.text);
        // Other unanswerable cards (the pointer rests on a text row, where a digit would be
        // typed) are refused by the plan, with its reason in words.
        const plan = answerPlan(now.harness, card, { option: req.option, toggle: req.toggle });
        if (!plan.ok) return this.finish(req.request_id, 'not_sent', `not sent: ${plan.reason}`);
        const picked = req.option !== undefined ? [req.option] : (req.toggle ?? []);
        const labels = picked.map((n) => card.options.find((o) => o.n === n)?.label ?? String(n));
        await this.update(req.request_id, 'typing', OUTCOME.typing, false, `${what}: ${labels.join(', ')}`);
        // The agent's redraw is awaited: a second answer to this dialog (a double tap, two
        // phones) must read the screen after this one, not the dialog it already answered.
        const ok = await pressKeys(at.tracker, at.tmuxId, plan.steps, true);
        return ok ? this.finish(req.request_id, 'typed', OUTCOME.answered) : this.finish(req.request_id, 'not_sent', OUTCOME.paneGone);
      });
    });
  }

  /**
   * `POST /api/panes/:id/sends/:request_id/cancel`: a text send still scheduled, queued or held is given
   * up, never typed (its receipt: `not sent: cancelled`). Decided in the pane's lane, so it
   * cannot cross a typing that has begun; cancelling twice answers the same receipt.
   */
  async cancel(paneId: string, requestId: string): Promise<CancelResult> {
    const known = this.d.store.get(requestId);
    if (!known || known.receipt.paneId !== paneId) return { ok: false, code: 'not_found', receipt: null };
    return this.inLane(paneId, async (): Promise<CancelResult> => {
      const now = this.d.store.get(requestId)!.receipt;
      if (now.outcome === OUTCOME.cancelled) return { ok: true, receipt: now };
      if (now.final || (now.state !== 'queued' && now.state !== 'held' && now.state !== 'scheduled')) return { ok: false, code: 'conflict', receipt: now };
      return { ok: true, receipt: await this.finish(requestId, 'not_sent', OUTCOME.cancelled) };
    });
  }

  /** An answer with words (`free-text.ts`), in the pane's lane after the card's checks. */
  private async answerText(requestId: string, at: { tracker: PaneTracker; tmuxId: string }, now: PaneNow, card: DialogCard, option: number, text: string): Promise<SendReceipt> {
    const label = card.options.find((o) => o.n === option);
    await this.update(requestId, 'typing', OUTCOME.typing, false, `option ${option}: ${label?.amend ?? label?.label ?? option}: ${summarize(sanitizeText(text))}`);
    const r = await answerWithText(this.typist(at), at.tmuxId, now, card, option, sanitizeText(text));
    if (!r.ok) return this.finish(requestId, 'not_sent', `not sent: ${r.reason}`);
    if (r.typed.result === 'typed') return this.finish(requestId, 'typed', OUTCOME.answered);
    if (r.typed.result === 'held') return this.finish(requestId, 'not_sent', OUTCOME.askChanged);
    return this.texts.outcome(requestId, r.typed, text, now.harness);
  }

  /**
   * `POST /api/panes/:id/box`: "Send it" (Enter) or "Clear it" for the text the send
   * `send_id` left in the box, only while the box holds exactly that text. The send's receipt
   * then says how it ended; the action has its own receipt (kind `keys`).
   */
  async box(paneId: string, req: BoxRequest): Promise<SendReceipt> {
    const fingerprint = this.d.store.fingerprint('box', `${req.action}\0${req.send_id}`);
    const known = this.d.store.get(req.request_id);
    if (known) return sameRequest(known, paneId, 'keys', fingerprint);
    return this.untyped(req.request_id, async () => {
      await this.record({ receipt: this.fresh(req.request_id, paneId, 'keys', req.action === 'submit' ? 'Send it' : 'Clear it'), fingerprint });
      return this.inLane(paneId, async () => {
        const of = this.d.store.get(req.send_id);
        const at = this.d.locate(paneId);
        const now = at ? await at.tracker.readNow(at.tmuxId) : null;
        if (!at || !now) return this.finish(req.request_id, 'not_sent', OUTCOME.paneGone);
        const draft = now.reading.draft;
        if (!of?.leftHash || of.receipt.paneId !== paneId || draft === null || now.reading.dialog !== null || this.d.store.fingerprint('box', boxForm(draft)) !== of.leftHash) {
          return this.finish(req.request_id, 'not_sent', OUTCOME.boxChanged);
        }
        if (req.action === 'submit' && (now.state === 'working' || now.state === 'blocked' || now.reading.state === 'working')) return this.finish(req.request_id, 'not_sent', OUTCOME.busy);
        await this.update(req.request_id, 'typing', OUTCOME.typing);
        const done = await actOnBox(this.typist(at), at.tmuxId, req.action, draft);
        if (done === 'gone') return this.finish(req.request_id, 'not_sent', OUTCOME.paneGone);
        if (done === 'unchanged') return this.finish(req.request_id, 'not_sent', OUTCOME.boxChanged);
        const ended = req.action === 'submit' ? (['typed', OUTCOME.sentFromBox] as const) : (['not_sent', OUTCOME.clearedFromBox] as const);
        await this.record({ receipt: { ...of.receipt, state: ended[0], outcome: ended[1], left: undefined, updatedAt: this.now() }, fingerprint: of.fingerprint });
        return this.finish(req.request_id, 'typed', OUTCOME.pressed);
      });
    });
  }

  private typist(at: { tracker: PaneTracker; tmuxId: string }) {
    return { command: (a: readonly string[]) => at.tracker.command(a), commands: (l: readonly (readonly string[])[]) => at.tracker.commands(l), readNow: () => at.tracker.readNow(at.tmuxId), nextOutput: (id: string, ms: number) => at.tracker.nextOutput(id, ms), bufferDir: this.d.bufferDir };
  }

  /** Run `fn` when the pane's earlier presses are done: one lane per pane. */
  private inLane<T>(paneId: string, fn: () => Promise<T>): Promise<T> {
    const run = (this.pressTail.get(paneId) ?? Promise.resolve()).catch(() => undefined).then(fn);
    this.pressTail.set(paneId, run);
    return run;
  }

  private fresh(requestId: string, paneId: string, kind: SendReceipt['kind'], summary: string): SendReceipt {
    const t = this.now();
    return { requestId, paneId, kind, summary: this.d.redact(summary), state: 'queued', outcome: OUTCOME.queued, final: false, createdAt: t, updatedAt: t };
  }

  /**
   * A request whose receipt could not be written before anything was typed (the state disk
   * full, `NotSaved`): not sent, and said so. That final receipt is written once there is room.
   */
  private async untyped(requestId: string, fn: () => Promise<SendReceipt>): Promise<SendReceipt> {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof NotSaved)) throw err;
      return this.finish(requestId, 'not_sent', OUTCOME.notSaved);
    }
  }

  private async record(send: StoredSend): Promise<SendReceipt> {
    try {
      await this.d.store.put(send);
    } catch (err) {
      // A final receipt stands once decided (the store writes it once there is room); before
      // that, nothing may be typed on a receipt the disk does not hold.
      if (!(err instanceof NotSaved) || !send.receipt.final) throw err;
    }
    this.d.hub.publish({ type: 'send.updated', receipt: send.receipt });
    return send.receipt;
  }

  private async update(requestId: string, state: SendReceipt['state'], outcome: string, final = false, summary?: string, left: Left = {}): Promise<SendReceipt> {
    const cur = this.d.store.get(requestId)!;
    const text = summary === undefined ? cur.receipt.summary : this.d.redact(summary);
    if (cur.receipt.state === state && cur.receipt.outcome === outcome && cur.receipt.final === final && cur.receipt.summary === text && left.left === undefined) return cur.receipt;
    const receipt: SendReceipt = { ...cur.receipt, state, outcome, final, summary: text, updatedAt: this.now() };
    if (left.left !== undefined) receipt.left = left.left;
    return this.record({ ...cur, receipt, ...(left.leftHash ? { leftHash: left.leftHash } : {}) });
  }

  private finish(requestId: string, state: SendReceipt['state'], outcome: string, left?: Left): Promise<SendReceipt> {
    return this.update(requestId, state, outcome, true, undefined, left);
  }
}
