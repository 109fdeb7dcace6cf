import type { z } from 'zod';
import { AgentListAnswer, AgentStopAnswer, CancelAnswer, NerveErrorBody, QueueAnswer, SessionInfo, StopAnswer, TranscriptAnswer } from '@collie/protocol';

/** The bridge's `/api/nerve/*`: Nerve's API for this paired device. Never throws. */
export type NerveResult<T> = { ok: true; value: T } | { ok: false; status: number; message: string };

async function call<S extends z.ZodType>(schema: S, method: string, path: string, body?: object): Promise<NerveResult<z.infer<S>>> {
  try {
    const res = await fetch(`/api/nerve${path}`, {
      method,
      // The bridge takes every write as JSON, a DELETE too.
      ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' } }),
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(20_000),
    });
    const json: unknown = await res.json().catch(() => null);
    if (!res.ok) {
      const e = NerveErrorBody.safeParse(json);
      const m = (json as { error?: { message?: string } } | null)?.error?.message;
      return { ok: false, status: res.status, message: e.success ? e.data.error.message : (m ?? `error ${res.status}`) };
    }
    const got = schema.safeParse(json);
    return got.success ? { ok: true, value: got.data } : { ok: false, status: 0, message: 'Nerve answered something unexpected' };
  } catch {
    return { ok: false, status: 0, message: 'No answer from the bridge' };
  }
}

const s = (id: string) => `/sessions/${encodeURIComponent(id)}`;
const BY = { requested_by: 'phone' };

export const nerveApi = {
  session: (id: string) => call(SessionInfo, 'GET', s(id)),
  agents: (id: string) => call(AgentListAnswer, 'GET', `${s(id)}/agents`),
  queue: (id: string) => call(QueueAnswer, 'GET', `${s(id)}/queue`),
  transcript: (id: string, agent: string, after: number) => call(TranscriptAnswer, 'GET', `${s(id)}/agents/${agent}/transcript?after=${after}`),
  stop: (id: string, scope: 'turn' | 'all' | 'force') => call(StopAnswer, 'POST', `${s(id)}/stop`, { scope, ...BY }),
  stopAgent: (id: string, agent: string) => call(AgentStopAnswer, 'POST', `${s(id)}/agents/${agent}/stop`, BY),
  cancel: (id: string, queueId: string) => call(CancelAnswer, 'DELETE', `${s(id)}/queue/${encodeURIComponent(queueId)}`),
  reorder: (id: string, order: readonly string[]) => call(QueueAnswer, 'PUT', `${s(id)}/queue/order`, { order }),
};
