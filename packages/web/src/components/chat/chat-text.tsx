import { createContext, useContext, type ReactNode } from 'react';

/**
 * How a chat draws a piece of its text: text nodes, never HTML. A chat may give its own (a
 * pane's Chat turns a message id its walky log holds into a chip); every item component that
 * draws text (markdown, its code spans and blocks, replies, thinking, your own lines, code,
 * tool output) draws it through this one function. Without a provider: the text as it is.
 */
export type RenderText = (text: string) => ReactNode;

const plain: RenderText = (text) => text;

export const ChatText = createContext<RenderText>(plain);

/** The chat's text renderer (plain text outside a provider). */
export function useChatText(): RenderText {
  return useContext(ChatText);
}
