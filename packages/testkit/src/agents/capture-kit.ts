import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentPane } from './pane';

/** What a correct reading of a captured screen is (the fixture corpus's label format). */
export interface CaptureLabel {
  harness: string;
  state: 'idle' | 'working' | 'blocked' | null;
  dialog: string | null;
  draft: boolean;
  /** The card's option labels, for a dialog the phone answers. */
  options?: string[];
  /** The exact draft, where the screen holds one. */
  draftText?: string;
  note: string;
}

/** Collects labelled screens of one agent pane and writes them as `<harness>--<name>.txt` + labels.json. */
export interface CaptureSet {
  keep(name: string, label: Omit<CaptureLabel, 'harness'>): Promise<void>;
  /** Takes over the labels another set (into the same dir) kept. */
  adopt(other: CaptureSet): void;
  /** The labels kept so far. */
  readonly labels: Readonly<Record<string, CaptureLabel>>;
  /** Writes labels.json and a README naming the version; returns the names kept. */
  finish(readme: string[]): Promise<string[]>;
}

/**
 * A capture set writing into `outDir` from `pane` (`capture-pane -e -p`: SGR kept, LF line ends).
 *
 * @example
 * const set = await captureSet(dir, 'codex', codex);
 * await set.keep('fresh-idle', { state: 'idle', dialog: null, draft: false, note: 'just started' });
 */
export async function captureSet(outDir: string, harness: string, pane: () => AgentPane): Promise<CaptureSet> {
  await mkdir(outDir, { recursive: true });
  const labels: Record<string, CaptureLabel> = {};
  return {
    labels,
    adopt(other) {
      Object.assign(labels, other.labels);
    },
    async keep(name, label) {
      const screen = await pane().capture({ escapes: true });
      await writeFile(join(outDir, `${harness}--${name}.txt`), screen);
      labels[`${harness}--${name}`] = { harness, ...label };
    },
    async finish(readme) {
      await writeFile(join(outDir, 'labels.json'), `${JSON.stringify(labels, null, 1)}\n`);
      await writeFile(join(outDir, 'README.md'), [...readme, ''].join('\n'));
      return Object.keys(labels);
    },
  };
}
