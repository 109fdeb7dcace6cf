import { useCallback, useState } from 'react';
import type { DurableQuestion, WireAnswer } from '@collie/protocol';
import { postDurable } from '../../lib/durable/api';
import { requestIdFor, type Tap } from '../../lib/durable/cards';
import { newRequestId } from '../../lib/request-ids';

/**
 * Your taps on one conversation's question cards, by question id. Only a tap sends an answer,
 * with one request id; an unsure one keeps its id, so "Try again" is told once by the agent.
 */
export function useQuestionTaps(agent: string, conversationId: string, updatedAt: number) {
  const [taps, setTaps] = useState<ReadonlyMap<string, Tap>>(new Map());
  const put = (id: string, tap: Tap) => setTaps((was) => new Map(was).set(id, tap));

  const fire = useCallback(
    (question: DurableQuestion, answer: WireAnswer, requestId: string) => {
      put(question.id, { question, requestId, answer, result: null, updatedAt });
      void postDurable('answer', { agent, conversationId, questionId: question.id, version: question.version, answer, request_id: requestId }).then((result) =>
        put(question.id, { question, requestId, answer, result, updatedAt }),
      );
    },
    [agent, conversationId, updatedAt],
  );

  const send = (question: DurableQuestion, answer: WireAnswer) => fire(question, answer, requestIdFor(taps.get(question.id), newRequestId));
  /** "Try again": the same answer, the same version, the same request id. */
  const retry = (questionId: string) => {
    const tap = taps.get(questionId);
    if (tap) fire(tap.question, tap.answer, tap.requestId);
  };
  return { taps, send, retry };
}
