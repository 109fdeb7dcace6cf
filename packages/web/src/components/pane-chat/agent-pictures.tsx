import type { PaneChatImage } from '@collie/protocol';
import { Picture } from './picture';

/** Where the phone reads a picture the pane's transcript carries. */
export function transcriptImageUrl(paneId: string, ref: string): string {
  return `/api/panes/${encodeURIComponent(paneId)}/chat/images/${encodeURIComponent(ref)}`;
}

/** The file a tool read, when its input names a picture file: the pictures' name. */
function nameOf(input: string | undefined, n: number, count: number): string {
  const file = input?.split(/[\\/]/).pop()?.trim();
  const base = file && /\.(png|jpe?g|gif|webp)$/i.test(file) ? file : 'Picture from the agent';
  return count > 1 ? `${base} (${n + 1} of ${count})` : base;
}

/**
 * The pictures an item of the agent's transcript carries (a file the agent read, a picture pasted
 * into its TUI): inline, a tap shows one large, as the person's own pictures.
 */
export function AgentPictures({ paneId, images, input }: { readonly paneId: string; readonly images: readonly PaneChatImage[]; readonly input?: string }) {
  return (
    <div className="chat-agent-pictures">
      {images.map((m, i) => (
        <Picture key={m.ref} name={nameOf(input, i, images.length)} src={transcriptImageUrl(paneId, m.ref)} />
      ))}
    </div>
  );
}
