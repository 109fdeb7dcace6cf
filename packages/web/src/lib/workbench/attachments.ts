import { MAX_ATTACHMENTS, type Upload } from '@collie/protocol';
import type { UploadResult } from './uploads-api';

/** One file the person attached to the message being written. */
export interface Attachment {
  readonly key: string;
  readonly name: string;
  readonly size: number;
  readonly state: 'uploading' | 'ready' | 'failed';
  readonly upload: Upload | null;
  /** Why it failed, in words. */
  readonly message: string | null;
}

export type AttachmentsAction =
  | { readonly type: 'added'; readonly key: string; readonly name: string; readonly size: number }
  | { readonly type: 'settled'; readonly key: string; readonly result: UploadResult }
  | { readonly type: 'removed'; readonly key: string }
  | { readonly type: 'sent'; readonly ids: readonly string[] };

/** The attachments of the composer, as a pure reducer. At most `MAX_ATTACHMENTS`; more are refused by `canAdd`. */
export function attachmentsReducer(list: readonly Attachment[], action: AttachmentsAction): readonly Attachment[] {
  switch (action.type) {
    case 'added':
      return [...list, { key: action.key, name: action.name, size: action.size, state: 'uploading', upload: null, message: null }];
    case 'settled':
      return list.map((a) =>
        a.key !== action.key ? a : action.result.ok ? { ...a, state: 'ready', upload: action.result.upload, name: action.result.upload.name } : { ...a, state: 'failed', message: action.result.message },
      );
    case 'removed':
      return list.filter((a) => a.key !== action.key);
    case 'sent':
      // Only what went with the message leaves; a file added meanwhile stays for the next one.
      return list.filter((a) => !(a.upload && action.ids.includes(a.upload.id)));
  }
}

/** How many more files fit. */
export function room(list: readonly Attachment[]): number {
  return Math.max(0, MAX_ATTACHMENTS - list.length);
}

/** The upload ids a send carries, or why it cannot go yet. */
export function attachmentsToSend(list: readonly Attachment[]): { ids: string[]; blocker: string | null } {
  if (list.some((a) => a.state === 'uploading')) return { ids: [], blocker: 'Waiting for the files to upload.' };
  if (list.some((a) => a.state === 'failed')) return { ids: [], blocker: 'Remove the files that failed to upload.' };
  return { ids: list.flatMap((a) => (a.upload ? [a.upload.id] : [])), blocker: null };
}
