import type { AnswerRequest, KeyName, KeysRequest, ReviewComment, ReviewRequest, SendFilesRequest, SendRequest, SendWhen } from '@collie/protocol';

/** A send that waits: at a time (ISO 8601) or when the pane's usage limit resets. */
export type SendLaterChoice = { readonly at: string } | { readonly when: SendWhen };

/** One thing the person asked to do to a pane from the phone. */
export type PaneRequest =
  | { readonly kind: 'text'; readonly text: string; readonly later?: SendLaterChoice }
  | { readonly kind: 'keys'; readonly keys: readonly KeyName[] }
  | { readonly kind: 'answer'; readonly signature: string; readonly option: number; readonly text?: string }
  | { readonly kind: 'toggle'; readonly signature: string; readonly toggle: readonly number[] }
  /** A message with attached files (upload ids): their paths go first, in the agent's syntax. */
  | { readonly kind: 'files'; readonly text: string; readonly attachments: readonly string[] }
  /** Review comments on the pane's changes, sent as one message. */
  | { readonly kind: 'review'; readonly comments: readonly ReviewComment[] };

/** The route each request posts to, under `/api/panes/:id/`. */
export function requestPath(request: PaneRequest): 'send' | 'keys' | 'answer' | 'send-files' | 'review' {
  switch (request.kind) {
    case 'text':
      return 'send';
    case 'files':
      return 'send-files';
    case 'review':
      return 'review';
    case 'keys':
      return 'keys';
    case 'answer':
    case 'toggle':
      return 'answer';
  }
}

/** The body of the request, in the wire's own shape. */
export function requestBody(request: PaneRequest, requestId: string): SendRequest | KeysRequest | AnswerRequest | SendFilesRequest | ReviewRequest {
  switch (request.kind) {
    case 'text':
      return { text: request.text, request_id: requestId, ...request.later };
    case 'files':
      return { text: request.text, attachments: [...request.attachments], request_id: requestId };
    case 'review':
      return { comments: [...request.comments], request_id: requestId };
    case 'keys':
      return { keys: [...request.keys], request_id: requestId };
    case 'answer':
      return { signature: request.signature, request_id: requestId, option: request.option, ...(request.text !== undefined ? { text: request.text } : {}) };
    case 'toggle':
      return { signature: request.signature, request_id: requestId, toggle: [...request.toggle] };
  }
}

/**
 * What makes two taps "the same action" on one pane: the same words, the same keys, the same
 * answer to the same ask. A retry of the same action may reuse its request id.
 */
export function actionKey(paneId: string, request: PaneRequest): string {
  const what = (() => {
    switch (request.kind) {
      case 'text':
        return request.later ? `${JSON.stringify(request.later)} ${request.text}` : request.text;
      case 'files':
        return `${request.attachments.join(',')} ${request.text}`;
      case 'review':
        return JSON.stringify(request.comments);
      case 'keys':
        return request.keys.join(' ');
      case 'answer':
        return `${request.signature} ${request.option}${request.text !== undefined ? ` ${request.text}` : ''}`;
      case 'toggle':
        return `${request.signature} [${request.toggle.join(',')}]`;
    }
  })();
  return JSON.stringify([paneId, request.kind, what]);
}
