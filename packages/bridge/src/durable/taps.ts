import { WireResult, type CallPath, type TapResult } from '@collie/protocol';
import type { AgentLink } from './link';
import type { TapJournal } from './tap-journal';
import { wireCall, WireFailure } from './wire-client';

const CALL_MS = 10_000;
const RETRY_DOUBT = new Set(['not_open', 'changed', 'already_answered']);

const r = (outcome: TapResult['outcome'], reason: string | null = null, conversationId: string | null = null): TapResult => ({ outcome, reason, conversationId });

/**
 * A tap from the phone to a durable agent, with its request id: journaled on disk before the
 * call, so the same id is never delivered twice (a final result is returned from the journal;
 * an id that may have arrived is sent again with the same id, which the agent answers once).
 * A call that fails on the way is `unsure`; a retry of it that finds the question closed or
 * changed is `may_be_applied`.
 */
export async function tap(journal: TapJournal, link: AgentLink | undefined, path: CallPath, body: { requestId: string }): Promise<TapResult> {
  const prior = journal.get(body.requestId);
  if (prior?.status === 'final' && prior.result) return prior.result;
  const target = link?.target;
  if (!link || !target || link.state !== 'ready') {
    if (prior) return r('unsure');
    const why = !link ? 'No such durable agent.' : link.state === 'version_mismatch' ? 'The durable agent speaks another wire version.' : 'The durable agent is not reachable; nothing was sent.';
    return r('refused', why);
  }
  const at = Date.now();
  await journal.put({ requestId: body.requestId, agent: link.name, path, status: 'sent', result: null, at });
  let result: TapResult;
  try {
    const w = WireResult.safeParse(await wireCall(target, 'POST', path, body, CALL_MS));
    if (!w.success) throw new Error('the agent answered with something that is not a wire v1 result');
    const outcome = prior && RETRY_DOUBT.has(w.data.outcome) ? 'may_be_applied' : w.data.outcome;
    result = r(outcome, w.data.reason, w.data.conversationId);
  } catch (err) {
    // The agent answered and refused the call itself (a 4xx): it arrived, and it is final.
    if (err instanceof WireFailure && err.status !== null && err.status >= 400 && err.status < 500) {
      result = r('refused', 'The durable agent refused the request.');
      await journal.put({ requestId: body.requestId, agent: link.name, path, status: 'final', result, at });
      return result;
    }
    await journal.put({ requestId: body.requestId, agent: link.name, path, status: 'unsure', result: null, at });
    return r('unsure');
  }
  await journal.put({ requestId: body.requestId, agent: link.name, path, status: 'final', result, at });
  return result;
}
