import { Pane, type Server, Snapshot } from '@collie/protocol';

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
    draft: null,
    ...overrides,
  });
}

export function makeServer(name = 'default', connected = true): Server {
  return { name, socket: `/tmp/tmux-1000/${name}`, pid: 99, connected };
}

export function makeSnapshot(seq: number, panes: Pane[], servers: Server[] = [makeServer()], run = 'run-a'): Snapshot {
  return Snapshot.parse({ version: 1, run, seq, machine: 'bluefin', servers, panes });
}
