import { z } from 'zod';
import { SendWhen, parseSendAt } from './send-later';

/**
 * A request id names one send for good: the same id again returns its receipt and types
 * nothing, also after a bridge restart.
 */
export const RequestId = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'a request id is 1 to 100 letters, digits, _ . : or -');
export type RequestId = z.infer<typeof RequestId>;

/** At most this many characters per send (a long paste; the agent's own limits are larger). */
export const MAX_SEND_CHARS = 20_000;

/**
 * `POST /api/panes/:id/send`. `at` (an ISO 8601 time with its zone) or `when: "limit-reset"`
 * (the pane's own usage-limit reset) makes it wait until then (`send-later.ts`); not both.
 */
export const SendRequest = z
  .object({
    text: z.string().min(1).max(MAX_SEND_CHARS),
    request_id: RequestId,
    at: z
      .string()
      .max(40)
      .refine((s) => parseSendAt(s) !== null, 'an ISO 8601 time with its zone, like 2026-12-05T02:00:00Z')
      .optional(),
    when: SendWhen.optional(),
  })
  .strict()
  .refine((b) => b.at === undefined || b.when === undefined, { message: 'give at or when, not both', path: ['when'] });
// Text that is empty once control bytes are removed, or only white space, is refused by the
// bridge (`400 empty_text`) before anything is typed: the schema cannot know the cleaning.
export type SendRequest = z.infer<typeof SendRequest>;

/**
 * Keys the phone's keys pad may press. `Stop` ends the running turn with the harness's own
 * key. Names are ours; the bridge maps them to tmux key names.
 */
export const KeyName = z.enum(['Escape', 'C-c', 'Tab', 'BTab', 'Up', 'Down', 'Left', 'Right', 'Enter', 'Space', 'BSpace', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'Stop']);
export type KeyName = z.infer<typeof KeyName>;

/** `POST /api/panes/:id/keys`: pressed in order, as the user asked, whatever is on screen. */
export const KeysRequest = z.object({ keys: z.array(KeyName).min(1).max(16), request_id: RequestId }).strict();
export type KeysRequest = z.infer<typeof KeysRequest>;

/**
 * Where a send stands. `scheduled`: waiting for its time (`scheduledFor`). `queued`: behind
 * another send to the same pane. `held`: waiting for the pane (a dialog, a running turn).
 * `typing`: keys are going in. The rest are final.
 */
export const SendState = z.enum(['scheduled', 'queued', 'held', 'typing', 'typed', 'not_sent', 'not_submitted']);
export type SendState = z.infer<typeof SendState>;

/** The words a receipt shows, one per outcome: the contract with the phone and the CLI. */
export const OUTCOME = {
  /** Followed by the ISO time (`scheduledOutcome` in send-later.ts); clients show it in their zone. */
  scheduled: 'scheduled for',
  queued: 'queued',
  heldDialog: 'held: dialog open',
  heldWorking: 'held: agent working',
  typing: 'typing',
  typed: 'typed into the pane',
  typedThenClosed: 'typed into the pane: the pane closed right after',
  pressed: 'pressed',
  answered: 'answered',
  draft: 'not sent: draft present',
  paneGone: 'not sent: pane gone',
  timedOut: 'not sent: timed out',
  interrupted: 'typed, not submitted: the bridge stopped while typing; look at the pane',
  /** Keys or an answer waiting for their turn when the bridge stopped: nothing of them was pressed, and they are not pressed later. */
  stopped: 'not sent: the bridge stopped before it was pressed',
  /** Keys or an answer caught mid-press by a crash: some keys may have gone in. */
  stoppedPressing: 'not known if pressed: the bridge stopped while pressing; look at the pane',
  askChanged: 'not sent: the ask changed',
  notAnswerable: 'not sent: a menu you opened is not answered from the phone',
  notSubmitted: 'typed, not submitted: the text is in the box',
  /** A dialog the agent opened as the Enter went in (drawn only after it) took the Enter as its answer. */
  enterTookDialog: 'typed, not submitted: a dialog opened as Enter went in, and the Enter answered it; the text is in the box',
  notVerified: 'not sent: the text did not arrive in the box',
  /** Its receipt could not be written before typing (the state disk full): nothing was typed. */
  notSaved: 'not sent: could not be saved on this machine',
  cancelled: 'not sent: cancelled',
  someoneTyped: 'not sent: someone typed in the pane at the same time; the box holds what they typed',
  someoneTypedLeft: 'not sent: someone typed in the pane at the same time; the box holds both texts',
  sentFromBox: 'typed into the pane: sent from the box',
  clearedFromBox: 'not sent: cleared from the box',
  boxChanged: 'not sent: the box no longer holds that text',
  busy: 'not sent: the agent is working',
} as const;

/**
 * What a box action (`POST /api/panes/:id/box`) does with text a send left in the box:
 * `submit` presses Enter ("Send it"), `clear` takes the text out ("Clear it"). Both act only
 * while the box still holds exactly what the send left.
 */
export const BoxAction = z.enum(['submit', 'clear']);
export type BoxAction = z.infer<typeof BoxAction>;

/** `POST /api/panes/:id/box`: act on the text the send `send_id` left in the box. */
export const BoxRequest = z.object({ action: BoxAction, send_id: RequestId, request_id: RequestId }).strict();
export type BoxRequest = z.infer<typeof BoxRequest>;

export const SendReceipt = z.object({
  requestId: RequestId,
  paneId: z.string(),
  kind: z.enum(['text', 'keys', 'answer']),
  /** What was sent, shortened for display and masked. */
  summary: z.string(),
  state: SendState,
  /** The outcome in words (see OUTCOME), with a reason after a colon where there is one. */
  outcome: z.string(),
  final: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /**
   * Text this send left in the agent's input box (shortened, masked), which the box actions
   * can send or clear; absent when nothing of it is there.
   */
  left: z.string().optional(),
  /** A send that waits: when it is (or was) to be typed, ISO 8601 UTC. */
  scheduledFor: z.string().optional(),
  /** `limit-reset`: its time follows the pane's usage-limit reset while it waits. */
  waitsFor: SendWhen.optional(),
});
export type SendReceipt = z.infer<typeof SendReceipt>;

/**
 * `POST /api/panes/:id/answer`: pick option `n` (or, multi-select, toggle `toggle` then submit).
 * `text` goes with `option` into an option that takes words (a text field, or one the agent lets
 * you amend): the bridge selects it, types the text, checks it arrived, then submits.
 */
export const AnswerRequest = z
  .object({
    signature: z.string().min(1).max(200),
    request_id: RequestId,
    option: z.number().int().positive().max(99).optional(),
    toggle: z.array(z.number().int().positive().max(99)).max(20).optional(),
    text: z.string().min(1).max(MAX_SEND_CHARS).optional(),
  })
  .strict()
  .refine((a) => (a.option === undefined) !== (a.toggle === undefined), 'give either option or toggle')
  .refine((a) => a.text === undefined || a.option !== undefined, 'text goes with option, not with toggle');
export type AnswerRequest = z.infer<typeof AnswerRequest>;

/** `POST /api/panes/:id/sends/:request_id/cancel` takes an empty object; the ids are in the path. */
export const CancelRequest = z.object({}).strict();
export type CancelRequest = z.infer<typeof CancelRequest>;

/** Every answer to send, keys and answer: the receipt as it stands when the call returns. */
export const ReceiptBody = z.object({ receipt: SendReceipt });
