import type { TmuxServer } from '../tmux';

/**
 * What a correct reading of a captured screen is: the format of
 * `harness/<agent>/captures/labels.json` (the bridge checks it with its `CaptureLabel` schema);
 * `runCapture` adds the `harness`.
 */
export interface CaptureLabel {
  state: 'idle' | 'working' | 'blocked' | 'unknown';
  dialog: string | null;
  draft: boolean;
  /** The draft's exact text, where the reading must give it. */
  draftText?: string;
  /** The card's option labels, for a dialog the phone answers. */
  options?: string[];
  /** False where the card is answered at the terminal (its pointer sits in a text field). */
  answerable?: boolean;
  note: string;
}

/** What a driver is given: a private tmux server, and `keep` to save the pane's screen now under a label. */
export interface CaptureSession {
  readonly tmux: TmuxServer;
  /** Saves `capture-pane -e -p` of `paneId` (SGR kept, LF line ends) as `<name>.txt` with `label`. */
  keep(paneId: string, name: string, label: CaptureLabel): Promise<void>;
}

/** What a capture run ends with. */
export interface CaptureResult {
  /** The agent's version, as its screen or binary says. */
  version: string;
  /** When given, the corpus's README.md (lines), replacing the old one. */
  readme?: string[];
}

/**
 * One agent's capture driver (`packages/testkit/src/agents/<agent>/capture.ts`): starts the real
 * agent offline and drives it through its states, calling `keep` at each screen worth a label.
 */
export interface CaptureDriver {
  /** The harness folder the screens go to: `packages/bridge/src/harness/<agent>/captures/`. */
  readonly agent: string;
  capture(session: CaptureSession): Promise<CaptureResult>;
}

/**
 * The README of a corpus a driver wrote whole: which agent and version, how, and how to refresh it.
 *
 * @example
 * return { version, readme: captureReadme('Codex', 'codex', version, { width: 120, height: 40 }, 'the scripted Responses API') };
 */
export function captureReadme(name: string, agent: string, version: string, size: { width: number; height: number }, api: string): string[] {
  return [
    `# Screens of the real ${name}`,
    '',
    `Captured by \`npm run capture -- ${agent}\` (the testkit's \`agents/${agent}/capture.ts\`) from ${name} ${version}`,
    `in a ${size.width}×${size.height} tmux pane, offline against ${api}, with \`capture-pane -e -p\``,
    '(SGR kept, LF line ends). `labels.json` says what a correct reading of each is (`harness/capture-labels.ts`).',
  ];
}
