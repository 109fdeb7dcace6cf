import type { Page } from 'playwright-core';

/**
 * Where a durable chat's newest item ends against the dock (composer, queue chips, belt):
 * `under` is how far it ends below the dock's top (0 or less when wholly visible), `nested` how
 * many elements inside the chat scroll on their own, `atFoot` whether the page is at its foot.
 */
export function newestUnderDock(page: Page): Promise<{ under: number; nested: number; atFoot: boolean }> {
  return page.evaluate(() => {
    const items = [...document.querySelectorAll('main.durable-chat > *')].filter((e) => (e as HTMLElement).offsetHeight > 0);
    const last = items.at(-1)!;
    const dock = document.querySelector('.durable-dock')!;
    const nested = [...document.querySelectorAll('main.durable-chat, main.durable-chat *')].filter((e) => {
      const s = getComputedStyle(e);
      return /(auto|scroll)/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1;
    }).length;
    const root = document.documentElement;
    return {
      under: last.getBoundingClientRect().bottom - dock.getBoundingClientRect().top,
      nested,
      atFoot: window.innerHeight + window.scrollY >= root.scrollHeight - 2,
    };
  });
}
