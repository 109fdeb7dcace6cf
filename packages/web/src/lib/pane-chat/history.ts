import { PaneChatPage } from '@collie/protocol';

/** `GET /api/panes/:id/chat?before=`: older items, validated; null when the bridge did not answer with a page. */
export async function fetchHistory(id: string, before: string, limit = 100): Promise<PaneChatPage | null> {
  try {
    const q = new URLSearchParams({ before, limit: String(limit) });
    const res = await fetch(`/api/panes/${encodeURIComponent(id)}/chat?${q.toString()}`, { signal: AbortSignal.timeout(20_000) });
    const parsed = PaneChatPage.safeParse(await res.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Items whose words hold `query` (case folded), for search within a pane's chat. */
export function matches(words: string, query: string): boolean {
  const q = query.trim().toLocaleLowerCase();
  return q === '' || words.toLocaleLowerCase().includes(q);
}
