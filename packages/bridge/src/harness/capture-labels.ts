import { Dialog, Harness, ScreenState } from '@collie/protocol';
import { z } from 'zod';

/**
 * What a correct reading of one captured screen is: `harness/<agent>/captures/labels.json`,
 * keyed by the capture's file name without `.txt`. `options`: the card's option labels, for a
 * dialog the phone answers.
 */
export const CaptureLabel = z
  .object({
    harness: Harness,
    state: ScreenState,
    dialog: Dialog.nullable(),
    draft: z.boolean(),
    /** The draft's text, where the reading must give it exactly. */
    draftText: z.string().optional(),
    options: z.array(z.string()).optional(),
    /** False where the dialog's card cannot take keys now (its pointer sits in a text field). Default true. */
    answerable: z.boolean().optional(),
    note: z.string(),
  })
  .strict();
export type CaptureLabel = z.infer<typeof CaptureLabel>;

export const CaptureLabels = z.record(z.string(), CaptureLabel);
export type CaptureLabels = z.infer<typeof CaptureLabels>;
