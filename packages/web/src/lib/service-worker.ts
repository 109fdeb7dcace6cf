/**
 * Registers `/sw.js`, which caches the app shell so the page opens from the home screen even
 * before the bridge answers. Only in a production build: the dev server's modules change
 * on every edit and must not be served from a cache.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      console.warn('service worker: registration failed', error);
    });
  });
}
