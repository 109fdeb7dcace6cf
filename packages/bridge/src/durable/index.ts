/**
 * Durable agents on the bridge: the agents listed in sources.json, each followed over wire v1
 * into the hub (snapshot `durable`, `durable.*` events), the phone's taps forwarded once, the
 * closed list read on demand, and push decisions. The one entry the composition root wires.
 */
import {
  ClosedPage,
  ConversationRead,
  fitClosed,
  fitItem,
  sourceTarget,
  versionListNote,
  type CallPath,
  type ClosedListResult,
  type ConversationReadResult,
  type DurablePush,
  type Source,
  type TapResult,
} from '@collie/protocol';
import { conversationKey } from '@collie/protocol';
import type { EventHub } from '../events/hub';
import type { Redactor } from '../redact';
import { AgentLink, type LinkDeps } from './link';
import { PushDecider } from './pushes';
import { readSources, watchSources } from './sources-file';
import { tap } from './taps';
import { TapJournal } from './tap-journal';
import { wireCall, WireFailure } from './wire-client';

export interface DurableOptions {
  hub: EventHub;
  stateDir: string;
  /** Where sources.json is; null: no durable agents. */
  configDir: string | null;
  machine: string;
  redact: Redactor;
  backoff?: LinkDeps['backoff'];
}

export interface DurableService {
  readonly links: ReadonlyMap<string, AgentLink>;
  /** Push decisions made so far (the newest 1,000), for the push service and tests. */
  readonly pushes: readonly DurablePush[];
  onPush(listener: (p: DurablePush) => void): () => void;
  /** Resolves once every push decided so far is on disk as pushed: only then may it go out. */
  pushesRecorded(): Promise<void>;
  tap(agent: string, path: CallPath, body: { requestId: string }): Promise<TapResult>;
  closed(agent: string, cursor: string | null): Promise<ClosedListResult>;
  read(agent: string, id: string): Promise<ConversationReadResult | null>;
  /** Read sources.json again now (the watcher does this by itself). */
  reload(): Promise<void>;
  stop(): Promise<void>;
}

const READ_MS = 5_000;

export async function startDurable(o: DurableOptions): Promise<DurableService> {
  const journal = await TapJournal.open(o.stateDir);
  const pushes: DurablePush[] = [];
  const listeners = new Set<(p: DurablePush) => void>();
  const decider = await PushDecider.open(o.stateDir, o.machine, (p) => {
    pushes.push(p);
    if (pushes.length > 1000) pushes.shift();
    for (const l of listeners) l(p);
  });
  const links = new Map<string, AgentLink>();
  const configs = new Map<string, string>();
  const mask = (s: string) => o.redact(s);

  const attach = (source: Source) => {
    const link = new AgentLink({
      source,
      target: sourceTarget(source),
      publish: (c) => o.hub.publish(c),
      mask,
      now: Date.now,
      items: (id) => o.hub.durable.threads.get(conversationKey(source.name, id)),
      asked: (c, q) => void decider.asked(source.name, c, q, Date.now()),
      ...(o.backoff ? { backoff: o.backoff } : {}),
    });
    links.set(source.name, link);
    configs.set(source.name, JSON.stringify(source));
    link.start();
  };
  const detach = (name: string) => {
    links.get(name)?.stop();
    links.delete(name);
    configs.delete(name);
    o.hub.publish({ type: 'durable.agent.removed', name });
  };

  let reloading: Promise<void> = Promise.resolve();
  const reload = () =>
    (reloading = reloading.then(async () => {
      if (o.configDir === null) return;
      const { agents } = await readSources(o.configDir);
      const wanted = new Map(agents.map((a) => [a.name, a]));
      for (const name of [...links.keys()]) if (JSON.stringify(wanted.get(name)) !== configs.get(name)) detach(name);
      for (const a of agents) if (!links.has(a.name)) attach(a);
    }));
  await reload();
  const unwatch = o.configDir === null ? () => undefined : watchSources(o.configDir, () => void reload());

  return {
    links,
    pushes,
    onPush: (l) => (listeners.add(l), () => listeners.delete(l)),
    pushesRecorded: () => decider.flush(),
    tap: (agent, path, body) => tap(journal, links.get(agent), path, body),
    async closed(agent, cursor) {
      const link = links.get(agent);
      if (!link) return { state: 'failed', message: 'No such durable agent.' };
      if (link.state === 'version_mismatch' && link.wire !== null) return { state: 'version_mismatch', note: versionListNote(link.wire) };
      const t = link.target;
      if (!t || link.state !== 'ready') return { state: 'no_answer' };
      try {
        const q = cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`;
        const page = ClosedPage.safeParse(await wireCall(t, 'GET', `/closed${q}`, undefined, READ_MS));
        if (!page.success) return { state: 'failed', message: 'The durable agent answered with something that is not a closed list.' };
        if (!page.data.keepsList) return { state: 'no_list' };
        return { state: 'ok', conversations: page.data.conversations.slice(0, 100).map((c) => fitClosed(c, mask)), next: page.data.next };
      } catch (err) {
        return err instanceof WireFailure && err.status === null ? { state: 'no_answer' } : { state: 'failed', message: err instanceof Error ? err.message : 'failed' };
      }
    },
    async read(agent, id) {
      const link = links.get(agent);
      const t = link?.target;
      if (!link || !t || link.state !== 'ready') return null;
      try {
        const got = ConversationRead.safeParse(await wireCall(t, 'GET', `/conversation?id=${encodeURIComponent(id)}`, undefined, READ_MS));
        if (!got.success) return null;
        const { items, questions, ...meta } = got.data.conversation;
        const view = link.mirror.view({ meta, questions: new Map(questions.map((q) => [q.id, q])) });
        return { conversation: view, items: items.slice(-500).map((i) => fitItem(i, mask)), closed: got.data.closed };
      } catch {
        return null;
      }
    },
    reload,
    async stop() {
      unwatch();
      for (const l of links.values()) l.stop();
      await reloading.catch(() => undefined);
      await decider.close();
      await journal.close();
    },
  };
}
