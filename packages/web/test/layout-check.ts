import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * Every axe-core violation on the page as it shows now, whatever its impact, in words.
 * axe.run in the page itself (legacy mode): the same rules and results as runPartial, without
 * opening and closing a blank page per check for finishRun (the app has no frames to collect).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).setLegacyMode().analyze();
  return result.violations.map((v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * What breaks a page at large text or a narrow screen, in words: the page scrolls sideways, a
 * label breaks inside a word (a word of up to 24 letters drawn on two lines), or an element
 * breaks words anywhere (`word-break: break-all`). Paths, ids and code may break anywhere
 * (`overflow-wrap: anywhere` on them), so text in `code`, `pre`, the terminal and the elements
 * marked as paths is not counted.
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const root = document.documentElement;
    // A phone widens its layout viewport (innerWidth) to fit what is too wide: the screen is clientWidth.
    const screenWidth = Math.min(window.innerWidth, root.clientWidth);
    if (root.scrollWidth > screenWidth) out.push(`scrolls sideways: ${root.scrollWidth} px in ${screenWidth}`);
    const skip = 'code, pre, kbd, .term, .address, .pane-where, .path, textarea, input, [aria-hidden="true"]';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    const split = new Set<string>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || el.closest(skip) || el.offsetParent === null) continue;
      if (getComputedStyle(el).wordBreak === 'break-all') out.push(`break-all on ${el.className || el.tagName}`);
      const text = node.textContent ?? '';
      for (const m of text.matchAll(/[^\s\-/·:,.()]{2,24}/g)) {
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) split.add(`"${m[0]}" in ${el.className || el.tagName}`);
      }
    }
    if (split.size > 0) out.push(`words broken across lines: ${[...split].slice(0, 8).join(', ')}`);
    return [...new Set(out)];
  });
}

/**
 * Where the page's composer dock (`dock`) leaves the screen, in words: its box, and every button
 * in it, must lie wholly within the viewport's height and the dock within its width (a row of
 * buttons that scrolls sideways on its own may hold buttons past the side).
 */
export function dockOutside(page: Page, dock: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const foot = [...document.querySelectorAll(sel)].find((e) => (e as HTMLElement).offsetHeight > 0);
    if (!foot) return [`no ${sel} shown`];
    const out: string[] = [];
    // What the person sees: the visual viewport (a phone widens the layout viewport past the
    // screen when something is too wide, and a sticky dock then sits at that one's foot).
    const vv = window.visualViewport!;
    const [top, h, left, w] = [vv.offsetTop, vv.height, vv.offsetLeft, vv.width];
    const box = foot.getBoundingClientRect();
    if (box.top < top - 0.5 || box.bottom > top + h + 0.5) out.push(`${sel} from y ${Math.round(box.top - top)} to ${Math.round(box.bottom - top)} in ${h}`);
    if (box.left < left - 0.5 || box.right > left + w + 0.5) out.push(`${sel} from x ${Math.round(box.left - left)} to ${Math.round(box.right - left)} in ${w}`);
    for (const b of foot.querySelectorAll('button')) {
      if ((b as HTMLElement).offsetParent === null) continue;
      const r = b.getBoundingClientRect();
      if (r.top < top - 0.5 || r.bottom > top + h + 0.5) out.push(`button "${(b.textContent ?? '').trim() || b.getAttribute('aria-label')}" from y ${Math.round(r.top - top)} to ${Math.round(r.bottom - top)} in ${h}`);
    }
    return out;
  }, dock);
}
