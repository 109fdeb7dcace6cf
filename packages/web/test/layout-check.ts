import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** Every axe-core violation on the page as it shows now, whatever its impact, in words. */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
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
    if (root.scrollWidth > window.innerWidth) out.push(`scrolls sideways: ${root.scrollWidth} px in ${window.innerWidth}`);
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
