/**
 * desk: a durable agent that uses every feature of the SDK, for the demo, the phone's tests and
 * the benchmarks. It keeps notes on an imaginary desk: conversations that stream replies, ask
 * the four kinds of question, report steps and percent, carry belt buttons, start from
 * starters, close and reopen, and keep a long closed list (250, so the phone pages it).
 */
import type { ClosedConversation } from '@collie/protocol';
import { DurableAgent, Refusal, serve, type Conversation, type ListenOn, type Listening, type StarterSpec } from '../../src/index';

export interface Desk {
  agent: DurableAgent;
  listening: Listening;
  close(): Promise<void>;
}

export interface DeskOptions {
  /** Delay between streamed pieces of a reply (ms). */
  paceMs?: number;
  /** Closed conversations to keep (the phone pages them 100 at a time). */
  closed?: number;
  /** Open the sample conversations at start. */
  samples?: boolean;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function stream(c: Conversation, words: string, pace: number): Promise<void> {
  const r = c.reply('', { growing: true });
  for (const w of words.split(' ')) {
    r.append(`${w} `);
    await wait(pace);
  }
  r.settle(words);
}

/** A note saved after a permission question about the write_file tool call. */
async function saveNote(c: Conversation, pace: number): Promise<void> {
  c.startTurn();
  c.progress({ kind: 'steps', steps: [{ label: 'Read the folder', state: 'done' }, { label: 'Save a note', state: 'running' }, { label: 'Tidy up', state: 'pending' }] });
  const t = c.tool('write_file', 'notes/today.md');
  const r = await c.ask({
    kind: 'permission',
    title: 'Write notes/today.md?',
    body: '3 lines: the plan for today.',
    toolCall: { id: t.callId, name: 'write_file' },
    options: [
      { id: 'yes', action: 'allow', label: 'Yes, write it' },
      { id: 'always', action: 'always', label: 'Always for notes/' },
      { id: 'no', action: 'deny', label: 'No, leave it' },
    ],
    expiresInMs: 4 * 60_000,
    push: { title: 'desk wants to write a note', line: 'notes/today.md' },
    // Past the expiry the card stays: a late Allow still writes the note, a late Deny is timed out.
    onLateTap: (a) => {
      if (a.kind !== 'permission' || a.option === 'no') return false;
      void (async () => {
        c.startTurn();
        c.tool('write_file', 'notes/today.md').done('wrote 3 lines');
        await stream(c, 'Saved the note after all.', pace);
        c.endTurn();
      })();
      return true;
    },
  });
  if (r.status === 'answered' && r.answer.kind === 'permission' && r.answer.option !== 'no') {
    t.done('wrote 3 lines');
    await stream(c, 'Saved the note.', pace);
  } else if (r.status === 'answered') t.deny();
  else t.fail(r.status);
  c.endTurn();
}

async function planDay(c: Conversation): Promise<void> {
  c.startTurn();
  c.progress({ kind: 'percent', percent: 42, label: 'reading the calendar' });
  const r = await c.ask({
    kind: 'choice',
    title: 'Which of these today?',
    multiple: true,
    options: [
      { id: 'mail', label: 'Answer mail' },
      { id: 'review', label: 'Review the pull request' },
      { id: 'walk', label: 'A walk' },
    ],
  });
  c.markdown(r.status === 'answered' && r.answer.kind === 'choice' ? `## Today\n\n${r.answer.options.map((o) => `- **${o}**`).join('\n')}` : '_No plan._');
  c.endTurn();
}

async function fileTicket(c: Conversation): Promise<void> {
  c.startTurn();
  const r = await c.ask({
    kind: 'form',
    title: 'File a ticket',
    fields: [
      { kind: 'text', id: 'summary', label: 'Summary', required: true, limit: 120 },
      { kind: 'choice', id: 'team', label: 'Team', options: [{ id: 'web', label: 'Web' }, { id: 'infra', label: 'Infra' }] },
      { kind: 'toggle', id: 'urgent', label: 'Urgent' },
    ],
  });
  if (r.status === 'answered') c.link('https://tickets.example.com/T-1042', 'Ticket T-1042');
  c.endTurn();
}

async function rename(c: Conversation): Promise<void> {
  c.startTurn();
  const r = await c.ask({ kind: 'text', title: 'A new name for this conversation?', limit: 500, placeholder: 'Name' });
  if (r.status === 'answered' && r.answer.kind === 'text') c.set({ title: r.answer.text });
  c.endTurn();
}

function belt(c: Conversation): void {
  c.buttons([
    { id: 'archive', label: 'Archive', icon: 'archive', onTap: (x) => x.close() },
    { id: 'refresh', label: 'Refresh', icon: 'refresh', onTap: (x) => x.notice('refreshed') },
    { id: 'star', label: 'Star', icon: 'star', disabled: true, onTap: () => undefined },
  ]);
}

/** Start desk on a socket or a port. */
export async function startDesk(where: ListenOn, o: DeskOptions = {}): Promise<Desk> {
  const pace = o.paceMs ?? 40;
  const closed: ClosedConversation[] = Array.from({ length: o.closed ?? 250 }, (_, i) => ({
    id: `old-${i}`,
    title: i % 7 === 3 ? null : `Old note ${i + 1}`,
    subtitle: 'closed',
    updatedAt: Date.now() - (i + 1) * 3_600_000,
  }));
  const background = new Set<Promise<void>>();
  const run = (p: Promise<void>) => {
    background.add(p);
    void p.finally(() => background.delete(p));
  };
  const starter = (id: string, label: string, line: string, title: string, job: (c: Conversation) => Promise<void>): StarterSpec => ({
    id,
    label,
    line,
    onStart: (agent) => {
      const c = agent.open({ title, workspace: '~/desk' });
      belt(c);
      run(job(c));
      return c;
    },
  });
  const agent = new DurableAgent({
    runtime: 'desk',
    controls: { steer: true },
    starters: [
      starter('note', 'Write a note', 'Asks before it writes', 'Save a note', (c) => saveNote(c, pace)),
      starter('plan', 'Plan my day', 'A pick of any number', 'Plan the day', planDay),
      starter('ticket', 'File a ticket', 'A short form', 'File a ticket', fileTicket),
      starter('rename', 'Rename', 'One line of text', 'Rename me', rename),
    ],
    onMessage: async (c, text, { steer }) => {
      if (text.length > 5_000) throw new Refusal('desk reads at most 5,000 characters.');
      if (steer) return void c.notice(`steered: ${text.slice(0, 60)}`);
      c.startTurn();
      c.thinking('Reading what you wrote.');
      run(stream(c, `You said: ${text}`, pace).then(() => c.endTurn()));
    },
    onStop: () => undefined,
    onReopen: (id, a) => {
      const i = closed.findIndex((x) => x.id === id);
      if (i < 0) return null;
      const [was] = closed.splice(i, 1);
      const c = a.open({ id, title: was?.title ?? null, subtitle: 'reopened' });
      belt(c);
      return c;
    },
    closedList: async (cursor) => {
      const from = Number(cursor ?? 0) || 0;
      const page = closed.slice(from, from + 100);
      return { conversations: page, next: from + 100 < closed.length ? String(from + 100) : null };
    },
    readClosed: async (id) => {
      const x = closed.find((c) => c.id === id);
      return x ? { id: x.id, title: x.title, subtitle: x.subtitle, workspace: null, working: false, turn: '', progress: null, buttons: [], openedAt: x.updatedAt, updatedAt: x.updatedAt, items: [{ kind: 'notice', id: 'n', at: x.updatedAt, final: true, text: 'closed' }], questions: [] } : null;
    },
  });
  if (o.samples ?? true) {
    const a = agent.open({ title: 'Morning notes', subtitle: 'notes/today.md', workspace: '~/desk' });
    belt(a);
    a.user('What is on the desk?');
    a.markdown('# The desk\n\n- a **mug**\n- the *plan*\n- `notes/today.md`\n\n[the wiki](https://wiki.example.com/desk) <script>alert(1)</script>');
    a.code('ls ~/desk\nnotes  plans', 'sh');
    a.link('https://example.com/desk', 'The desk page');
    a.tool('read_dir', '~/desk').done('notes plans');
    const b = agent.open({ title: 'Save a note', workspace: '~/desk' });
    belt(b);
    run(saveNote(b, pace));
  }
  const listening = await serve(agent, where);
  return {
    agent,
    listening,
    close: async () => {
      for (const c of [...agent.conversations.values()]) for (const q of c.asks.values()) q.cancel('closed');
      await Promise.allSettled([...background]);
      await listening.close();
    },
  };
}
