import { QuickReplies, type QuickReply } from '@collie/protocol';

/** `GET /api/quick-replies`, validated; an empty list when it cannot be read (the chips just do not show). */
export async function fetchQuickReplies(): Promise<readonly QuickReply[]> {
  try {
    const response = await fetch('/api/quick-replies', { headers: { accept: 'application/json' }, cache: 'no-store' });
    const parsed = QuickReplies.safeParse(await response.json().catch(() => null));
    if (!response.ok || !parsed.success) {
      console.warn(`quick replies: the bridge answered ${response.status}`);
      return [];
    }
    return parsed.data.replies;
  } catch (error) {
    console.warn('quick replies: no answer from the bridge', error);
    return [];
  }
}
