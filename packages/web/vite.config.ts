import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Pages past the dashboard and a pane are chunks of their own (src/app.tsx), loaded on first
 * use so the first load stays small. index.html names each of them as a `prefetch` link: the
 * browser fetches them when it is idle, the service worker keeps them (it keeps the assets
 * the page names), and every page still opens while the bridge is away.
 */
function prefetchPages(): Plugin {
  return {
    name: 'collie-prefetch-pages',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk' && !c.isEntry);
        return chunks.map((c) => ({ tag: 'link', attrs: { rel: 'prefetch', href: `/${c.fileName}` }, injectTo: 'head' as const }));
      },
    },
  };
}

// The bridge serves `dist/` under a strict CSP (`script-src 'self'; style-src 'self'`), so the
// build must emit no inline script or style: entry and CSS go out as files, and the
// module-preload polyfill (an inline helper in some setups) is off.
export default defineConfig({
  base: '/',
  plugins: [react(), prefetchPages()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
  server: {
    // `npx vite` during development: the API and events come from a bridge on its default port.
    proxy: { '/api': { target: 'http://127.0.0.1:8787', ws: true } },
  },
});
