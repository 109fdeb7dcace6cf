import type { Page } from 'playwright-core';

/** Where a page's chat is: its element, and the dock (composer, queue chips, belt) it must clear. */
export interface ChatPlace {
  readonly chat: string;
  readonly dock: string;
}

/** A durable (and Nerve) chat: the page's main is the chat, its dock fixed at the foot. */
export const DURABLE_CHAT: ChatPlace = { chat: 'main.durable-chat', dock: '.durable-dock' };
/** A pane's Chat: the timeline in the page, the pane's dock under it. */
export const PANE_CHAT: ChatPlace = { chat: '.pane-chat-scroll', dock: '.dock' };

/**
 * Where a chat's newest item ends against the dock: `under` is how far it ends below the
 * dock's top (0 or less when wholly visible), `nested` how many elements inside the chat scroll
 * on their own, `atFoot` whether the page is at its foot.
 */
export function newestUnderDock(page: Page, place: ChatPlace = DURABLE_CHAT): Promise<{ under: number; nested: number; atFoot: boolean }> {
  return page.evaluate(({ chat, dock }) => {
    const items = [...document.querySelectorAll(`${chat} > *`)].filter((e) => (e as HTMLElement).offsetHeight > 0);
    const last = items.at(-1)!;
    const foot = document.querySelector(dock)!;
    const nested = [...document.querySelectorAll(`${chat}, ${chat} *`)].filter((e) => {
      const s = getComputedStyle(e);
      return /(auto|scroll)/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1;
    }).length;
    const root = document.documentElement;
    return {
      under: last.getBoundingClientRect().bottom - foot.getBoundingClientRect().top,
      nested,
      atFoot: window.innerHeight + window.scrollY >= root.scrollHeight - 2,
    };
  }, place);
}
