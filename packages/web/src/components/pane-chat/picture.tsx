import { useRef, useState } from 'react';
import { isPictureName, uploadUrl } from '../../lib/workbench/uploads-api';

/**
 * A file the person attached, where the agent's text named it by the bridge's path: a picture
 * inline (read back through `GET /api/uploads/:id`), which a tap shows large in a modal dialog
 * (Close, Escape or a tap beside it closes it); any other file, or a picture the bridge no longer
 * keeps, by its name. `src` instead of an upload id: a picture the agent's transcript carries
 * (`GET /api/panes/:id/chat/images/:ref`), shown the same way.
 */
export function Picture({ id, name, src: given }: { readonly id?: string; readonly name: string; readonly src?: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [gone, setGone] = useState(false);
  if ((given === undefined && !isPictureName(name)) || gone) return <span className="chat-file">{gone ? `${name} (no longer on the bridge)` : name}</span>;
  const src = given ?? uploadUrl(id ?? '');
  return (
    <>
      <button type="button" className="chat-picture" aria-label={`Enlarge ${name}`} onClick={() => dialog.current?.showModal()}>
        <img src={src} alt={name} onError={() => setGone(true)} />
      </button>
      <dialog
        ref={dialog}
        className="picture-dialog"
        aria-label={name}
        onClick={(e) => {
          if (e.target === dialog.current) dialog.current.close();
        }}
      >
        <img src={src} alt={name} />
        <form method="dialog">
          <button type="submit" className="button">
            Close
          </button>
        </form>
      </dialog>
    </>
  );
}
