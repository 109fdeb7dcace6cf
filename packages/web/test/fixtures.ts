import { DialogCard, Pane, SendReceipt, type Server, Snapshot } from '@collie/protocol';

/** A valid pane (checked against the protocol schema) with the given fields changed. */
export function makePane(overrides: Partial<Pane> & { id: string }): Pane {
  const tmuxId = overrides.tmuxId ?? `%${overrides.id.replace(/\D/g, '') || '1'}`;
  return Pane.parse({
    address: `local/${tmuxId}#ab12`,
    token: 'ab12',
    server: 'default',
    tmuxId,
    machine: 'bluefin',
    sessionId: '$1',
    sessionName: 'work',
    windowId: '@1',
    windowIndex: 1,
    windowName: 'main',
    paneIndex: 0,
    active: false,
    cwd: '/home/me/collie',
    title: 'collie',
    command: 'claude',
    pid: 4242,
    width: 120,
    height: 40,
    harness: 'claude',
    label: 'collie#main',
    state: 'idle',
    since: 1_000,
    dialog: null,
    card: null,
    draft: null,
    ...overrides,
  });
}

export function makeServer(name = 'default', connected = true): Server {
  return { name, socket: `/tmp/tmux-1000/${name}`, pid: 99, connected };
}

export function makeSnapshot(
  seq: number,
  panes: Pane[],
  servers: Server[] = [makeServer()],
  run = 'run-a',
  sends: SendReceipt[] = [],
): Snapshot {
  return Snapshot.parse({ version: 1, run, seq, machine: 'bluefin', servers, panes, sends });
}

/** A valid receipt (checked against the protocol schema) with the given fields changed. */
export function makeReceipt(overrides: Partial<SendReceipt> & { requestId: string }): SendReceipt {
  const state = overrides.state ?? 'typed';
  return SendReceipt.parse({
    paneId: 'default:%1',
    kind: 'text',
    summary: 'run the tests',
    state,
    outcome: state === 'typed' ? 'typed into the pane' : state,
    final: state === 'typed' || state === 'not_sent' || state === 'not_submitted',
    createdAt: 1_000,
    updatedAt: 1_000,
    ...overrides,
  });
}

/** A valid dialog card: a permission ask unless the overrides say otherwise. */
export function makeCard(overrides: Partial<DialogCard> = {}): DialogCard {
  return DialogCard.parse({
    kind: 'permission',
    signature: 'sig-perm-1',
    title: 'Bash command',
    body: ['touch made-by-bash', 'Run the scripted command'],
    question: 'Do you want to proceed?',
    options: [
      { n: 1, label: 'Yes', description: null, checked: null, freeText: false },
      { n: 2, label: "Yes, and don't ask again for touch commands", description: null, checked: null, freeText: false },
      { n: 3, label: 'No, and tell Claude what to do differently', description: null, checked: null, freeText: true },
    ],
    tabs: [],
    activeTab: null,
    answerable: true,
    ...overrides,
  });
}
