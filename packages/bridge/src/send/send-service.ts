import type { AnswerRequest, DialogCard, KeyName, SendReceipt } from '@collie/protocol';
import { OUTCOME } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import { answerPlan } from '../harness/card';
import type { PaneNow, PaneTracker } from '../panes/pane-tracker';
import type { Redactor } from '../redact';
import { decide } from './decide';
import { answerWithText } from './free-text';
import { tmuxKeys } from './keys';
import type { ReceiptStore, StoredSend } from './receipt-store';
import { sanitizeText, summarize } from './sanitize';
import { pressKeys, typeAndSubmit, type TypeResult } from './typist';

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

/** Claude's dialogs ignore keys for a moment after they open (against stray presses). */
export const DIALOG_SETTLE_MS = 600;

const TYPE_OUTCOME: Record<Exclude<TypeResult, 'typed'>, [SendReceipt['state'], string]> = {
  gone: ['not_sent', OUTCOME.paneGone],
  not_arrived: ['not_sent', OUTCOME.notVerified],
  not_submitted: ['not_submitted', OUTCOME.notSubmitted],
};

/**
 * The send protocol: one receipt per request id, written before anything is typed; text
 * sends to a pane typed one after another (FIFO), each held while the pane cannot take it;
 * every key press (a send's paste and Enter, the keys pad, a card's answer) in one lane per
 * pane so nothing is typed into anything else.
 */
export class SendService {
  private readonly textTail = new Map<string, Promise<void>>();
  private readonly textCount = new Map<string, number>();
  private readonly pressTail = new Map<string, Promise<unknown>>();
  private readonly stopped = new AbortController();
  private readonly now: () => number;

  constructor(private readonly d: SendServiceDeps) {
    this.now = d.now ?? Date.now;
  }

  /** Sends that were waiting when the bridge stopped wait again (nothing of them was typed). */
  resume(): void {
    for (const s of this.d.store.waiting()) if (s.text !== undefined) void this.runText(s.receipt.requestId, s.receipt.paneId);
  }

  stop(): void {
    this.stopped.abort();
  }

  /** `POST /api/panes/:id/send`. Resolves with the receipt once its first decision is made. */
  async send(paneId: string, text: string, requestId: string): Promise<SendReceipt> {
    const known = this.d.store.get(requestId);
    if (known) return known.receipt;
    const clean = sanitizeText(text);
    await this.record({ receipt: this.fresh(requestId, paneId, 'text', summarize(clean)), text: clean });
    return this.runText(requestId, paneId);
  }

  /** `POST /api/panes/:id/keys`: pressed as asked, in the pane's lane. */
  async keys(paneId: string, keys: readonly KeyName[], requestId: string): Promise<SendReceipt> {
    const known = this.d.store.get(requestId);
    if (known) return known.receipt;
    await this.record({ receipt: this.fresh(requestId, paneId, 'keys', keys.join(' ')), keys: [...keys] });
    return this.inLane(paneId, async () => {
      const at = this.d.locate(paneId);
      const now = at ? await at.tracker.readNow(at.tmuxId) : null;
      if (!at || !now) return this.finish(requestId, 'not_sent', OUTCOME.paneGone);
      await this.update(requestId, 'typing', OUTCOME.typing);
      const ok = await pressKeys(at.tracker, at.tmuxId, tmuxKeys(keys, now.harness));
      return ok ? this.finish(requestId, 'typed', OUTCOME.pressed) : this.finish(requestId, 'not_sent', OUTCOME.paneGone);
    });
  }

  /** `POST /api/panes/:id/answer`: press the card's keys only if the pane still shows that ask. */
  async answer(paneId: string, req: AnswerRequest): Promise<SendReceipt> {
    const known = this.d.store.get(req.request_id);
    if (known) return known.receipt;
    const what = req.option !== undefined ? `option ${req.option}${req.text !== undefined ? ' with words' : ''}` : `tick ${req.toggle?.join(', ')}`;
    await this.record({ receipt: this.fresh(req.request_id, paneId, 'answer', what) });
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
      const ok = await pressKeys(at.tracker, at.tmuxId, plan.steps);
      return ok ? this.finish(req.request_id, 'typed', OUTCOME.answered) : this.finish(req.request_id, 'not_sent', OUTCOME.paneGone);
    });
  }

  /** An answer with words (`free-text.ts`), in the pane's lane after the card's checks. */
  private async answerText(requestId: string, at: { tracker: PaneTracker; tmuxId: string }, now: PaneNow, card: DialogCard, option: number, text: string): Promise<SendReceipt> {
    const label = card.options.find((o) => o.n === option);
    await this.update(requestId, 'typing', OUTCOME.typing, false, `option ${option}: ${label?.amend ?? label?.label ?? option}: ${summarize(sanitizeText(text))}`);
    const deps = { command: (a: readonly string[]) => at.tracker.command(a), readNow: () => at.tracker.readNow(at.tmuxId), bufferDir: this.d.bufferDir };
    const r = await answerWithText(deps, at.tmuxId, now, card, option, sanitizeText(text));
    if (!r.ok) return this.finish(requestId, 'not_sent', `not sent: ${r.reason}`);
    if (r.typed === 'typed') return this.finish(requestId, 'typed', OUTCOME.answered);
    const [state, words] = TYPE_OUTCOME[r.typed];
    return this.finish(requestId, state, words);
  }

  /** Queue a text send behind the pane's earlier ones; resolves at its first decision. */
  private runText(requestId: string, paneId: string): Promise<SendReceipt> {
    let settle!: (r: SendReceipt) => void;
    const settled = new Promise<SendReceipt>((r) => (settle = r));
    const ahead = this.textCount.get(paneId) ?? 0;
    this.textCount.set(paneId, ahead + 1);
    const job = (this.textTail.get(paneId) ?? Promise.resolve())
      .then(() => this.textJob(requestId, paneId, settle))
      .catch(async (err: unknown) => settle(await this.finish(requestId, 'not_sent', `not sent: ${(err as Error).message}`)))
      .catch(() => undefined) // the receipt log is closed: the bridge is stopping
      .finally(() => this.textCount.set(paneId, (this.textCount.get(paneId) ?? 1) - 1));
    this.textTail.set(paneId, job);
    if (ahead > 0) settle(this.d.store.get(requestId)!.receipt); // stays "queued" behind the others
    return settled;
  }

  private async textJob(requestId: string, paneId: string, settle: (r: SendReceipt) => void): Promise<void> {
    const stored = this.d.store.get(requestId);
    if (!stored || stored.receipt.final || stored.text === undefined) return settle(stored!.receipt);
    const text = stored.text;
    const deadline = stored.receipt.createdAt + this.d.holdMs;
    for (;;) {
      if (this.stopped.signal.aborted) return;
      if (this.now() >= deadline) return settle(await this.finish(requestId, 'not_sent', OUTCOME.timedOut));
      const at = this.d.locate(paneId);
      const outcome = at
        ? await this.inLane(paneId, async () => {
            const now = await at.tracker.readNow(at.tmuxId);
            const d = decide(now);
            if (d.action === 'hold') return this.update(requestId, 'held', d.reason === 'dialog' ? OUTCOME.heldDialog : OUTCOME.heldWorking);
            if (d.action === 'refuse') return this.finish(requestId, 'not_sent', d.reason === 'draft' ? OUTCOME.draft : OUTCOME.paneGone);
            await this.update(requestId, 'typing', OUTCOME.typing);
            const result = await typeAndSubmit({ command: (a) => at.tracker.command(a), readNow: () => at.tracker.readNow(at.tmuxId), bufferDir: this.d.bufferDir }, at.tmuxId, text, d.blind);
            if (result === 'typed') return this.finish(requestId, 'typed', OUTCOME.typed);
            const [state, words] = TYPE_OUTCOME[result];
            return this.finish(requestId, state, words);
          })
        : await this.finish(requestId, 'not_sent', OUTCOME.paneGone);
      settle(outcome);
      if (outcome.final) return;
      await this.changeOf(paneId, deadline);
    }
  }

  /** Resolves at the pane's next change (or removal), the deadline, or the bridge's stop. */
  private changeOf(paneId: string, deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        off();
        clearTimeout(timer);
        this.stopped.signal.removeEventListener('abort', done);
        resolve();
      };
      const off = this.d.hub.subscribe((e) => {
        if ((e.type === 'pane.updated' && e.pane.id === paneId) || (e.type === 'pane.removed' && e.id === paneId)) done();
      });
      const timer = setTimeout(done, Math.max(0, deadline - this.now()));
      this.stopped.signal.addEventListener('abort', done);
    });
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

  private async record(send: StoredSend): Promise<SendReceipt> {
    await this.d.store.put(send);
    this.d.hub.publish({ type: 'send.updated', receipt: send.receipt });
    return send.receipt;
  }

  private async update(requestId: string, state: SendReceipt['state'], outcome: string, final = false, summary?: string): Promise<SendReceipt> {
    const cur = this.d.store.get(requestId)!;
    const text = summary === undefined ? cur.receipt.summary : this.d.redact(summary);
    if (cur.receipt.state === state && cur.receipt.outcome === outcome && cur.receipt.final === final && cur.receipt.summary === text) return cur.receipt;
    return this.record({ ...cur, receipt: { ...cur.receipt, state, outcome, final, summary: text, updatedAt: this.now() } });
  }

  private finish(requestId: string, state: SendReceipt['state'], outcome: string): Promise<SendReceipt> {
    return this.update(requestId, state, outcome, true);
  }
}
