import { fitQuestion, type KnownQuestion, type QuestionEnd, type QuestionInput, type WireAnswer, type WireResult, KnownQuestion as KnownQuestionSchema } from '@collie/protocol';
import { checkAnswer } from './check-answer';

/** How an ask ended, as `await conversation.ask(…)` resolves. */
export type AskResult =
  | { status: 'answered'; answer: WireAnswer; requestId: string }
  | { status: 'expired' }
  | { status: 'decided' }
  | { status: 'stopped' }
  | { status: 'closed' };

/** A question as the author writes it: `at` and `version` are filled in, `expiresInMs` becomes `expiresAt`. */
type Draft = QuestionInput extends infer Q ? (Q extends QuestionInput ? Omit<Q, 'at' | 'version' | 'expiresAt' | 'id'> : never) : never;
export type QuestionSpec = Draft & {
  id?: string;
  expiresInMs?: number;
  /** Refuse an answer the author cannot use: return the reason, or null to take it. */
  check?: (answer: WireAnswer) => string | null;
  /**
   * A tap after the expiry (the question stays open, its buttons too): return true to take it
   * (the phone says it was taken), false to answer "Timed out before an answer." Without it: timed out.
   */
  onLateTap?: (answer: WireAnswer, requestId: string) => boolean;
};

export interface AskHooks {
  now: () => number;
  /** The question was asked or changed: publish it. */
  asked: (q: KnownQuestion) => void;
  ended: (id: string, reason: QuestionEnd) => void;
}

/**
 * One question's life, with the outcome rules built in: a tap after another answer is
 * `already_answered`, after the agent decided `decided`, past the expiry `timed_out`, on an old
 * version `changed`, an answer that does not fit `refused`; else `taken`, once.
 */
export class Ask implements PromiseLike<AskResult> {
  question: KnownQuestion;
  ended: QuestionEnd | null = null;
  private resolve!: (r: AskResult) => void;
  private readonly result: Promise<AskResult>;
  private timer: NodeJS.Timeout | null = null;
  private readonly check: ((a: WireAnswer) => string | null) | undefined;
  private readonly onLateTap: ((a: WireAnswer, requestId: string) => boolean) | undefined;
  /** Past its expiry: the ask resolved `expired`, the question stays open for a late tap. */
  private expired = false;

  constructor(
    id: string,
    spec: QuestionSpec,
    private readonly hooks: AskHooks,
  ) {
    this.result = new Promise((r) => (this.resolve = r));
    this.check = spec.check;
    this.onLateTap = spec.onLateTap;
    this.question = this.build(id, spec, 0);
    this.arm();
    hooks.asked(this.question);
  }

  then<A = AskResult, B = never>(ok?: ((v: AskResult) => A | PromiseLike<A>) | null, no?: ((e: unknown) => B | PromiseLike<B>) | null): PromiseLike<A | B> {
    return this.result.then(ok, no);
  }

  /** The agent decides the question itself: a later tap is told "Decided in the durable agent." */
  decide(): void {
    this.end('decided', { status: 'decided' });
  }

  /** Change the question in place: its version grows, so a tap on the old one is `changed`. */
  update(spec: QuestionSpec): void {
    if (this.ended) return;
    this.question = this.build(this.question.id, spec, this.question.version + 1);
    this.arm();
    this.hooks.asked(this.question);
  }

  /** A tap from the phone; the caller has already deduplicated the request id. */
  take(requestId: string, version: number, answer: WireAnswer): WireResult {
    const r = (outcome: WireResult['outcome'], reason: string | null = null): WireResult => ({ outcome, reason, conversationId: null });
    if (!this.ended && this.question.expiresAt !== null && this.hooks.now() >= this.question.expiresAt) this.expire();
    switch (this.ended) {
      case 'answered':
        return r('already_answered');
      case 'timed_out':
        return r('timed_out');
      case 'decided':
      case 'stopped':
      case 'closed':
        return r('decided');
      case null:
        break;
    }
    if (version !== this.question.version) return r('changed');
    const why = checkAnswer(this.question, answer) ?? this.check?.(answer) ?? null;
    if (why !== null) return r('refused', why);
    if (this.expired) {
      // The author answers a late tap; either way the question ends now.
      const taken = this.onLateTap?.(answer, requestId) === true;
      this.end(taken ? 'answered' : 'timed_out', { status: 'expired' });
      return r(taken ? 'taken' : 'timed_out');
    }
    this.end('answered', { status: 'answered', answer, requestId });
    return r('taken');
  }

  /**
   * End the question as timed out (an expired one the author no longer wants tapped): the card
   * goes, the chat keeps the line "Timed out before an answer:", and a later tap is told so.
   */
  timeOut(): void {
    this.end('timed_out', { status: 'expired' });
  }

  /** The turn was stopped or the conversation closed. */
  cancel(reason: 'stopped' | 'closed'): void {
    this.end(reason, { status: reason });
  }

  /** At the expiry the ask resolves `expired`; its question stays open (the card keeps its buttons and reads "Expired"). */
  private expire(): void {
    if (this.expired || this.ended) return;
    this.expired = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.resolve({ status: 'expired' });
  }

  private end(reason: QuestionEnd, result: AskResult): void {
    if (this.ended) return;
    this.ended = reason;
    if (this.timer) clearTimeout(this.timer);
    this.hooks.ended(this.question.id, reason);
    this.resolve(result);
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const at = this.question.expiresAt;
    if (at !== null) {
      this.timer = setTimeout(() => this.expire(), Math.max(0, at - this.hooks.now()));
      this.timer.unref();
    }
  }

  private build(id: string, spec: QuestionSpec, version: number): KnownQuestion {
    const { expiresInMs, check: _check, onLateTap: _late, id: _id, ...rest } = spec;
    const now = this.hooks.now();
    const parsed = KnownQuestionSchema.parse({ ...rest, id, version, at: now, expiresAt: expiresInMs === undefined ? null : now + expiresInMs });
    // Cut to the page's limits here, so the author's own code sees what the phone shows.
    const fitted = fitQuestion(parsed);
    const { shortened, answerable: _a, ...q } = fitted;
    return KnownQuestionSchema.parse({ ...q, shortened });
  }
}
