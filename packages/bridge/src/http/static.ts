import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Hono } from 'hono';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves the built web app. Hashed assets are cached for good; the shell, the manifest and
 * the service worker are revalidated so an update reaches the phone. Paths are resolved
 * inside the web dir only.
 */
export function serveWeb(app: Hono, webDir: string): void {
  const root = normalize(webDir + sep);
  app.get('/*', async (c) => {
    let path: string;
    try {
      path = decodeURIComponent(c.req.path);
    } catch {
      return c.text('bad path', 400);
    }
    if (path.includes('\0')) return c.text('bad path', 400);
    const rel = path === '/' || !extname(path) ? 'index.html' : path.slice(1);
    const file = normalize(join(root, rel));
    if (!file.startsWith(root)) return c.text('not found', 404);
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      if (rel === 'index.html') return c.text('The web app is not built yet: run `npm run build`, or `npm start` which builds it.', 503);
      return c.text('not found', 404);
    }
    const immutable = rel.startsWith('assets/');
    return c.body(new Uint8Array(body), 200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  });
}
