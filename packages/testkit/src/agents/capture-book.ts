import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a correct reading of a saved screen is, in the format of the fixture corpus's labels.json. */
export interface CaptureLabel {
  harness: string;
  state: 'idle' | 'working' | 'blocked' | 'unknown' | null;
  dialog: string | null;
  draft: boolean;
  /** The card's option labels, for a dialog the phone answers. */
  options?: string[];
  note: string;
}

/** Saves screens of one agent with their labels. */
export interface CaptureBook {
  /** Saves `screen` (capture-pane -e -p text) as `<harness>--<name>.txt`. */
  keep(name: string, screen: string, label: Omit<CaptureLabel, 'harness'>): Promise<void>;
  /** Writes labels.json and a README naming the agent's version and the pane size. */
  finish(what: string): Promise<string[]>;
}

/**
 * A book of captures in `outDir` for `harness`.
 *
 * @example
 * const book = await captureBook('captures', 'opencode');
 * await book.keep('idle', await pane.capture({ escapes: true }), { state: 'idle', dialog: null, draft: false, note: 'start screen' });
 * await book.finish('OpenCode 1.18.33 in a 120×40 pane');
 */
export async function captureBook(outDir: string, harness: string): Promise<CaptureBook> {
  await mkdir(outDir, { recursive: true });
  const labels: Record<string, CaptureLabel> = {};
  return {
    async keep(name, screen, label) {
      await writeFile(join(outDir, `${harness}--${name}.txt`), screen);
      labels[`${harness}--${name}`] = { harness, ...label };
    },
    async finish(what) {
      await writeFile(join(outDir, 'labels.json'), `${JSON.stringify(labels, null, 1)}\n`);
      const readme = [
        `# Real ${harness} screens`,
        '',
        `Captured from ${what}, offline against the testkit's scripted model API, with \`capture-pane -e -p\``,
        '(SGR kept, LF line ends). `labels.json` says what a correct reading of each is, in the format of',
        '`shared/fixtures/panes/labels.json`. Refresh with `npm run capture -- ' + harness + '`.',
        '',
      ].join('\n');
      await writeFile(join(outDir, 'README.md'), readme);
      return Object.keys(labels);
    },
  };
}
