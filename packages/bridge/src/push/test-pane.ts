import type { DialogCard, Pane } from '@collie/protocol';

/**
 * A pane as the hub publishes it, for the pure tests of the push planner and the bench's
 * in-process half (the live tests use the real Claude Code TUI).
 */
export function testPane(over: Partial<Pane> & { id: string }): Pane {
  return {
    address: `local/${over.id}#ab12`,
    token: 'ab12',
    server: 't',
    tmuxId: '%1',
    machine: 'testbox',
    sessionId: '$1',
    sessionName: 'work',
    windowId: '@1',
    windowIndex: 0,
    windowName: 'w',
    paneIndex: 0,
    active: true,
    cwd: '/tmp',
    title: '',
    command: 'claude',
    pid: 1,
    width: 80,
    height: 24,
    harness: 'claude',
    label: 'collie#main',
    state: 'idle',
    since: 0,
    dialog: null,
    card: null,
    draft: null,
    ...over,
  };
}

/** A Bash permission card as Claude Code's reader makes it (description, then the command). */
export function bashCard(command: string, signature = `sig-${command}`): DialogCard {
  return {
    kind: 'permission',
    signature,
    title: 'Bash command',
    body: ['Run the scripted command', command],
    question: 'Do you want to proceed?',
    options: [
      { n: 1, label: 'Yes', description: null, checked: null, freeText: false },
      { n: 2, label: 'No', description: null, checked: null, freeText: false },
    ],
    tabs: [],
    activeTab: null,
    answerable: true,
  };
}

export const blocked = (id: string, command: string, extra: Partial<Pane> = {}): Pane =>
  testPane({ id, state: 'blocked', dialog: 'permission', card: bashCard(command), ...extra });
