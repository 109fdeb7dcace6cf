import { useCallback, useReducer, useRef } from 'react';
import { type Attachment, attachmentsReducer, room } from '../../lib/workbench/attachments';
import { uploadFile } from '../../lib/workbench/uploads-api';

export interface Attachments {
  readonly list: readonly Attachment[];
  /** Uploads each file at once (the bridge checks it); files past the limit of 10 are dropped with a note. */
  add(files: readonly File[]): void;
  remove(key: string): void;
  /** The files that went with a message leave the composer. */
  sent(ids: readonly string[]): void;
}

/** The composer's attached files: uploaded as soon as they are picked, sent by id with the text. */
export function useAttachments(): Attachments {
  const [list, dispatch] = useReducer(attachmentsReducer, []);
  const counter = useRef(0);
  const current = useRef(list);
  current.current = list;
  const add = useCallback((files: readonly File[]) => {
    const fit = files.slice(0, room(current.current));
    for (const file of fit) {
      const key = `a${++counter.current}`;
      dispatch({ type: 'added', key, name: file.name || 'pasted.png', size: file.size });
      void uploadFile(file, file.name || 'pasted.png').then((result) => dispatch({ type: 'settled', key, result }));
    }
    for (const file of files.slice(fit.length)) {
      const key = `a${++counter.current}`;
      dispatch({ type: 'added', key, name: file.name, size: file.size });
      dispatch({ type: 'settled', key, result: { ok: false, message: `${file.name}: at most 10 files per message` } });
    }
  }, []);
  const remove = useCallback((key: string) => dispatch({ type: 'removed', key }), []);
  const sent = useCallback((ids: readonly string[]) => dispatch({ type: 'sent', ids }), []);
  return { list, add, remove, sent };
}
