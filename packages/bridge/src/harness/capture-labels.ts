import { existsSync, readdirSync } from 'node:fs';
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

/** One folder of an agent's captured screens: the pinned release's `captures/`, or another release's `captures/<version>/`. */
export interface CaptureCorpus {
  agent: Harness;
  /** `codex`, or `codex 0.156.0` for another release. */
  name: string;
  dir: URL;
}

/**
 * Every corpus of real screens under `harness/` (`harnessDir`): each `<agent>/captures/` with a
 * `labels.json`, and each release folder in it (`captures/<version>/`, written by
 * `npm run capture -- <agent> --from <prefix>`).
 */
export function captureCorpora(harnessDir: URL): CaptureCorpus[] {
  const withLabels = (dir: URL) => existsSync(new URL('labels.json', dir));
  return readdirSync(harnessDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && withLabels(new URL(`${d.name}/captures/`, harnessDir)))
    .flatMap((d) => {
      const dir = new URL(`${d.name}/captures/`, harnessDir);
      const agent = Harness.parse(d.name);
      const releases = readdirSync(dir, { withFileTypes: true })
        .filter((r) => r.isDirectory() && !r.name.startsWith('.') && withLabels(new URL(`${r.name}/`, dir)))
        .map((r) => ({ agent, name: `${d.name} ${r.name}`, dir: new URL(`${r.name}/`, dir) }));
      return [{ agent, name: d.name, dir }, ...releases];
    });
}
