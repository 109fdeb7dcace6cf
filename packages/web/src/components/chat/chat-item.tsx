import type { DurableItem } from '@collie/protocol';
import { CodeItem } from './code-item';
import { LinkItem } from './link-item';
import { MarkdownItem } from './markdown-item';
import { NoticeItem } from './notice-item';
import { ReplyItem } from './reply-item';
import { ThinkingItem } from './thinking-item';
import { ToolItem } from './tool-item';
import { UserItem } from './user-item';

/** One chat item, by kind: one component per kind, shared by every chat. `foldLines`: see `ToolItem`. Text goes through the chat's `useChatText`. */
export function ChatItem({ item, foldLines }: { readonly item: DurableItem; readonly foldLines?: number }) {
  switch (item.kind) {
    case 'user':
      return <UserItem item={item} />;
    case 'reply':
      return <ReplyItem item={item} />;
    case 'thinking':
      return <ThinkingItem item={item} />;
    case 'notice':
      return <NoticeItem item={item} />;
    case 'markdown':
      return <MarkdownItem item={item} />;
    case 'code':
      return <CodeItem item={item} />;
    case 'link':
      return <LinkItem item={item} />;
    case 'tool':
      return <ToolItem item={item} {...(foldLines === undefined ? {} : { foldLines })} />;
  }
}
