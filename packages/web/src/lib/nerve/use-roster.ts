import type { AgentRecord, QueuedMessage, SessionInfo } from '@collie/protocol';
import { useEffect, useMemo, useState } from 'react';
import { useClientState } from '../../hooks/use-client';
import { nerveApi } from './api';
import { mergeRecords } from './roster';

export type NerveRoster =
  | { phase: 'loading' }
  | { phase: 'unavailable'; message: string }
  | { phase: 'ready'; info: SessionInfo; agents: AgentRecord[]; queue: readonly QueuedMessage[]; isRunning: boolean; ticks: ReadonlyMap<string, number> };

type Fetched = { key: string; info: SessionInfo; agents: AgentRecord[]; queue: QueuedMessage[] } | { key: string; failed: string };

/**
 * One Nerve session's roster: read once through `/api/nerve` (again for a new bridge run or
 * when the bridge reaches Nerve again), then kept current by the `nerve.event`s the model folds.
 */
export function useNerveRoster(sessionId: string, enabled: boolean): NerveRoster {
  const { model, connection } = useClientState();
  const run = model?.run ?? '';
  const epoch = model?.nerve?.epoch ?? 0;
  const key = `${run}\n${epoch}\n${sessionId}`;
  const [got, setGot] = useState<Fetched | null>(null);
  const live = connection === 'live';
  useEffect(() => {
    if (!enabled || !live || !run) return;
    let gone = false;
    void (async () => {
      const [info, agents, queue] = await Promise.all([nerveApi.session(sessionId), nerveApi.agents(sessionId), nerveApi.queue(sessionId)]);
      if (gone) return;
      if (!info.ok || !agents.ok || !queue.ok) {
        const bad = [info, agents, queue].find((r) => !r.ok) as { message: string };
        setGot({ key, failed: bad.message });
      } else setGot({ key, info: info.value, agents: agents.value.agents, queue: queue.value.queue });
    })();
    return () => {
      gone = true;
    };
  }, [key, enabled, live, run, sessionId]);
  const fold = model?.nerve?.sessions.get(sessionId);
  return useMemo((): NerveRoster => {
    if (!got || got.key !== key) return { phase: 'loading' };
    if ('failed' in got) return { phase: 'unavailable', message: got.failed };
    return {
      phase: 'ready',
      info: got.info,
      agents: mergeRecords(got.agents, fold?.agents ?? new Map()),
      queue: fold?.queue ?? got.queue,
      isRunning: fold?.isRunning ?? got.info.is_running,
      ticks: fold?.ticks ?? new Map(),
    };
  }, [got, key, fold]);
}
