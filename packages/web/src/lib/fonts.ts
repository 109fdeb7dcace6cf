import '@fontsource/dejavu-mono/400.css';
import '@fontsource/dejavu-mono/700.css';
import symbolsUrl from '@fontsource/noto-sans-symbols-2/files/noto-sans-symbols-2-symbols-400-normal.woff2?url';

/**
 * The mirror's fonts, served by the bridge itself (the CSP allows `font-src 'self'`): DejaVu
 * Sans Mono for text, box drawing and ✻, and, for the media symbols agents draw (⏸ ⏵ ⏹) that it
 * lacks, Noto Sans Symbols 2 limited by unicode-range, so its file is fetched only by a screen
 * that shows one. No bundled font has ⎿ (U+23BF); `terminal-glyphs.ts` draws it as └.
 */
export function addSymbolFont(): void {
  if (typeof FontFace !== 'function') return;
  document.fonts.add(new FontFace('Collie Symbols', `url(${symbolsUrl}) format('woff2')`, { unicodeRange: 'U+23E9-23FA, U+25B6, U+25C0', display: 'swap' }));
}
