import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The bridge serves `dist/` under a strict CSP (`script-src 'self'; style-src 'self'`), so the
// build must emit no inline script or style: entry and CSS go out as files, and the
// module-preload polyfill (an inline helper in some setups) is off.
export default defineConfig({
  base: '/',
  plugins: [react()],
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
