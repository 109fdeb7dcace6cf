import { useLayoutEffect, useState } from 'react';

/** Within this many pixels of the page's foot the person counts as reading at the bottom. */
const FOOT_PX = 48;
/** Room between the newest item and the top of the dock. */
const GAP_PX = 12;

/**
 * The one mechanism a chat uses to follow its newest item with a single page scroll (no
 * scroller of its own): the chat's foot padding is the fixed dock's measured height (composer,
 * queue chips, belt, whatever it holds at the moment), and while the person reads at the
 * bottom, every change of the chat's or the dock's size scrolls the page to its foot. Once they
 * scroll up, it leaves the page where they are until they come back down.
 *
 * A dock in the page's flow (the pane page's, sticky at the foot) takes its own room: `inFlow`
 * leaves the chat's padding alone and only follows.
 *
 * Returns callback refs for the chat's element and the dock's.
 */
export function useFollowFoot(inFlow = false): { readonly chatRef: (el: HTMLElement | null) => void; readonly dockRef: (el: HTMLElement | null) => void } {
  const [chat, chatRef] = useState<HTMLElement | null>(null);
  const [dock, dockRef] = useState<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (!chat) return;
    const root = document.documentElement;
    let following = true;
    let lastY = window.scrollY;
    // Only the person scrolling up stops the following: a scroll event that lands after the chat
    // grew (and before it is followed) sees the page short of its foot without anyone moving.
    const onScroll = () => {
      const y = window.scrollY;
      const atFoot = window.innerHeight + y >= root.scrollHeight - FOOT_PX;
      following = y < lastY ? atFoot : following || atFoot;
      lastY = y;
    };
    const follow = () => {
      if (dock && !inFlow) chat.style.paddingBottom = `${dock.offsetHeight + GAP_PX}px`;
      if (following) window.scrollTo(0, root.scrollHeight);
    };
    const sizes = new ResizeObserver(follow);
    sizes.observe(chat);
    if (dock) sizes.observe(dock);
    window.addEventListener('scroll', onScroll, { passive: true });
    follow();
    return () => {
      sizes.disconnect();
      window.removeEventListener('scroll', onScroll);
      chat.style.paddingBottom = '';
    };
  }, [chat, dock, inFlow]);
  return { chatRef, dockRef };
}
