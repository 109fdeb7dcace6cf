/** The cursor at the end of an item that is still growing. */
export function Cursor({ final }: { readonly final: boolean }) {
  return final ? null : <span className="chat-cursor" aria-label="still writing">▍</span>;
}
