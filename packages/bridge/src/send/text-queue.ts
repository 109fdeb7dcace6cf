import type { SendReceipt } from '@collie/protocol';
import { OUTCOME } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import { AGENTS } from '../harness/agents';
import type { PaneNow, PaneTracker } from '../panes/pane-tracker';
import type { Redactor } from '../redact';
import { boxForm, matchBox } from './box-match';
import { decide } from './decide';
import { NotSaved, type ReceiptStore } from './receipt-store';
import { summarize } from './sanitize';
import { typeAndSubmit, type TypeResult, type TypistDeps } from './typist';

/** How soon a send held by an agent screen that could not be read reads it again. */
const UNREADABLE_RETRY_MS = 250;
/**
 * A send that waited (held, or queued behind another) is typed once the pane has been idle this
 * long: a turn may look idle for a moment between the model's reply and the dialog it opens, and
 * the turn a send just typed starts may not be drawn yet. Typed into a turn that runs, Claude
 * Code folds the text into it ("The user sent a new message while you were working").
 */
const SETTLE_MS = 1_500;

/** Extra fields a receipt change may set: the text left in the box (preview and hash). */
export interface Left {
  left?: string;
  leftHash?: string;
}

type At = { tracker: PaneTracker; tmuxId: string };

export interface TextQueueDeps {
  store: ReceiptStore;
  hub: EventHub;
  redact: Redactor;
  holdMs: number;
  now: () => number;
  stopped: AbortSignal;
  locate(paneId: string): At | null;
  /** The send service's lane of the pane: every key press to it runs there, one at a time. */
  inLane<T>(paneId: string, fn: () => Promise<T>): Promise<T>;
  typist(at: At): TypistDeps;
  update(requestId: string, state: SendReceipt['state'], outcome: string): Promise<SendReceipt>;
  finish(requestId: string, state: SendReceipt['state'], outcome: string, left?: Left): Promise<SendReceipt>;
}

/**
 * Text sends to a pane, typed one after another (FIFO), each held while the pane cannot take
 * it (`decide.ts`) and typed by the typist in the pane's lane. A send whose text a dialog
 * covered before its Enter (`held` from the typist) waits with its text in the box and is
 * submitted from there once the dialog is answered: nothing is pasted twice.
 */
export class TextQueue {
  private readonly tail = new Map<string, Promise<void>>();
  private readonly count = new Map<string, number>();
  /** When a send was last typed (submitted) into each pane: the turn it starts may not show yet. */
  private readonly submitted = new Map<string, number>();
  /** Sends whose typing began: a receipt not written after that cannot say "not sent". */
  private readonly typing = new Set<string>();

  constructor(private readonly d: TextQueueDeps) {}

  /** Queue a text send behind the pane's earlier ones; resolves at its first decision. */
  run(requestId: string, paneId: string): Promise<SendReceipt> {
    let settle!: (r: SendReceipt) => void;
    const settled = new Promise<SendReceipt>((r) => (settle = r));
    const ahead = this.count.get(paneId) ?? 0;
    this.count.set(paneId, ahead + 1);
    const job = (this.tail.get(paneId) ?? Promise.resolve())
      .then(() => this.job(requestId, paneId, settle, ahead > 0))
      .catch(async (err: unknown) => settle(await this.failed(requestId, err)))
      .catch(() => undefined) // the receipt log is closed: the bridge is stopping
      .finally(() => {
        this.count.set(paneId, (this.count.get(paneId) ?? 1) - 1);
        this.typing.delete(requestId);
      });
    this.tail.set(paneId, job);
    if (ahead > 0) settle(this.d.store.get(requestId)!.receipt); // stays "queued" behind the others
    return settled;
  }

  /**
   * A send whose job failed. A receipt that could not be written (`NotSaved`, the state disk
   * full) before typing began: not sent, nothing typed. After typing began (the text went into
   * the box and a dialog came over it): not submitted, the text is in the box.
   */
  private failed(requestId: string, err: unknown): Promise<SendReceipt> {
    if (!(err instanceof NotSaved)) return this.d.finish(requestId, 'not_sent', `not sent: ${(err as Error).message}`);
    if (!this.typing.has(requestId)) return this.d.finish(requestId, 'not_sent', OUTCOME.notSaved);
    const text = this.d.store.get(requestId)?.text;
    return this.d.finish(requestId, 'not_submitted', OUTCOME.notSubmitted, text === undefined ? undefined : this.left(text));
  }

  private async job(requestId: string, paneId: string, settle: (r: SendReceipt) => void, queued: boolean): Promise<void> {
    const stored = this.d.store.get(requestId);
    if (!stored || stored.receipt.final || stored.text === undefined) return settle(stored!.receipt);
    const text = stored.text;
    const deadline = (stored.firedAt ?? stored.receipt.createdAt) + this.d.holdMs;
    let unreadable = false;
    /** The text went into the box and a dialog came over it before its Enter. */
    let inBox = false;
    let wakeAt: number | null = null;
    /** It waited: held, or queued behind another send (`SETTLE_MS`). */
    let waited = queued;
    for (;;) {
      if (this.d.stopped.aborted) return;
      if (this.d.now() >= deadline) return settle(await this.d.finish(requestId, 'not_sent', OUTCOME.timedOut, inBox ? this.left(text) : undefined));
      const at = this.d.locate(paneId);
      const outcome = at
        ? await this.d.inLane(paneId, async () => {
            const mine = this.d.store.get(requestId)!.receipt;
            if (mine.final) return mine; // cancelled while it waited
            await this.turnShown(paneId);
            const now = await at.tracker.readNow(at.tmuxId);
            const d = decide(now);
            unreadable = d.action === 'hold' && d.reason === 'unreadable';
            if (d.action === 'hold') {
              waited = true;
              return this.d.update(requestId, 'held', d.reason === 'dialog' ? OUTCOME.heldDialog : OUTCOME.heldWorking);
            }
            if (inBox && d.action === 'refuse' && d.reason === 'draft') return this.fromBox(requestId, paneId, at, now!, text);
            if (d.action === 'refuse') return this.d.finish(requestId, 'not_sent', d.reason === 'draft' ? OUTCOME.draft : OUTCOME.paneGone);
            // A send that waited: typed once the pane has been idle SETTLE_MS (the model's
            // `since`), and SETTLE_MS after the send typed before it, whose turn may start after
            // its box emptied (seen in the soak: a queued text typed at once was folded into that
            // turn, "The user sent a new message while you were working").
            const since = Math.max(this.d.hub.panes.get(paneId)?.since ?? 0, this.submitted.get(paneId) ?? 0);
            if (waited && this.d.now() < since + SETTLE_MS) {
              wakeAt = since + SETTLE_MS;
              return this.d.update(requestId, 'held', OUTCOME.heldWorking);
            }
            await this.d.update(requestId, 'typing', OUTCOME.typing);
            this.typing.add(requestId);
            const result = await typeAndSubmit(this.d.typist(at), at.tmuxId, text, d.blind);
            if (result.result === 'typed') this.typedInto(paneId);
            inBox = result.result === 'held';
            return this.outcome(requestId, result, text, now!.harness);
          })
        : await this.d.finish(requestId, 'not_sent', OUTCOME.paneGone);
      settle(outcome);
      if (outcome.final) return;
      // An unreadable screen is read again soon: its redraw need not change the pane's model.
      const wake = wakeAt ?? (unreadable ? Math.min(deadline, this.d.now() + UNREADABLE_RETRY_MS) : deadline);
      wakeAt = null;
      await this.changeOf(paneId, Math.min(deadline, wake));
    }
  }

  /**
   * A send was typed into the pane now. A pane's time is dropped once it can change nothing:
   * the pane is gone, or it has been idle `SETTLE_MS` since a turn shown after that send.
   */
  private typedInto(paneId: string): void {
    const now = this.d.now();
    for (const [id, at] of this.submitted) {
      const p = this.d.hub.panes.get(id);
      if (!p || (p.since > at && (p.state === 'idle' || p.state === 'done') && now >= p.since + SETTLE_MS)) this.submitted.delete(id);
    }
    this.submitted.set(paneId, now);
  }

  /**
   * After a send was typed into the pane, the next one reads it only once what it shows of that
   * turn has held `SETTLE_MS` (a few waits at most; each follows a change the pane showed):
   * - the pane has shown no change since that send: the turn may not be drawn yet. A loaded
   *   machine drew Claude Code's turn 0.4 s after the text went in, and a send read the pane
   *   idle meanwhile and was folded into that turn (soak-31-100021);
   * - the pane reads idle again after that turn showed: its end must hold. A loaded machine
   *   drew Claude Code's screen without its spinner, for longer than the engine's 300 ms,
   *   between the model's answer and the dialog it asked for, and the next send was folded into
   *   the turn (soak-31-100020).
   * A pane that reads working or blocked is not waited on here: the send is held for it.
   */
  private async turnShown(paneId: string): Promise<void> {
    for (let i = 0; i < 4 && !this.d.stopped.aborted; i++) {
      const typed = this.submitted.get(paneId);
      const p = this.d.hub.panes.get(paneId);
      if (typed === undefined || !p) return;
      const from = typed >= p.since ? typed : p.state === 'idle' || p.state === 'done' ? p.since : null;
      const wait = from === null ? 0 : from + SETTLE_MS - this.d.now();
      if (wait <= 0) return;
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /**
   * The dialog that covered the text is gone and the box holds something: exactly the text,
   * it is submitted from the box; the text and keys someone typed since, both are left there
   * for "Send it" or "Clear it"; anything else is a draft, not ours.
   */
  private async fromBox(requestId: string, paneId: string, at: At, now: PaneNow, text: string): Promise<SendReceipt> {
    const m = matchBox(now.reading.draft, text, AGENTS[now.harness].pastePlaceholder);
    if (m === 'ours_and_more') return this.d.finish(requestId, 'not_sent', OUTCOME.someoneTypedLeft, this.left(now.reading.draft!));
    if (m !== 'ours') return this.d.finish(requestId, 'not_sent', OUTCOME.draft);
    await this.d.update(requestId, 'typing', OUTCOME.typing);
    this.typing.add(requestId);
    const result = await typeAndSubmit(this.d.typist(at), at.tmuxId, text, false, true);
    if (result.result === 'typed') this.typedInto(paneId);
    return this.outcome(requestId, result, text, now.harness);
  }

  private left(box: string): Left {
    return { left: summarize(this.d.redact(box)), leftHash: this.d.store.fingerprint('box', boxForm(box)) };
  }

  /** The receipt a typing ends with, in words; text it left in the box can be sent or cleared. */
  outcome(requestId: string, r: TypeResult, text: string, harness: keyof typeof AGENTS): Promise<SendReceipt> {
    const left = (box: string | null): Left => (box === null ? {} : this.left(box));
    switch (r.result) {
      case 'typed': {
        if (r.closed) return this.d.finish(requestId, 'typed', OUTCOME.typedThenClosed);
        const mode = AGENTS[harness].modes?.find((m) => text.startsWith(m.prefix));
        return this.d.finish(requestId, 'typed', mode ? `${OUTCOME.typed}: ${mode.words}` : OUTCOME.typed);
      }
      case 'held':
        return this.d.update(requestId, 'held', OUTCOME.heldDialog);
      case 'gone':
        return this.d.finish(requestId, 'not_sent', OUTCOME.paneGone);
      case 'unsaved':
        return this.d.finish(requestId, 'not_sent', OUTCOME.notSaved);
      case 'not_arrived':
        return this.d.finish(requestId, 'not_sent', OUTCOME.notVerified);
      case 'not_submitted':
        return this.d.finish(requestId, 'not_submitted', r.dialog ? OUTCOME.enterTookDialog : OUTCOME.notSubmitted, left(r.left));
      case 'mixed':
        return r.restored || r.left === null ? this.d.finish(requestId, 'not_sent', OUTCOME.someoneTyped) : this.d.finish(requestId, 'not_sent', OUTCOME.someoneTypedLeft, left(r.left));
    }
  }

  /** Resolves at the pane's next change (or removal), the deadline, or the bridge's stop. */
  private changeOf(paneId: string, deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        off();
        clearTimeout(timer);
        this.d.stopped.removeEventListener('abort', done);
        resolve();
      };
      const off = this.d.hub.subscribe((e) => {
        if ((e.type === 'pane.updated' && e.pane.id === paneId) || (e.type === 'pane.removed' && e.id === paneId)) done();
        else if (e.type === 'send.updated' && e.receipt.paneId === paneId && e.receipt.outcome === OUTCOME.cancelled) done();
      });
      const timer = setTimeout(done, Math.max(0, deadline - this.d.now()));
      this.d.stopped.addEventListener('abort', done);
    });
  }
}
