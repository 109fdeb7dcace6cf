import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { tempDir } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { buildWeb } from './e2e-setup';

/** DESIGN.md's budget for the web app's first load: at most 150 KB of JS, gzipped. */
const BUDGET = 150 * 1024;

describe('the web app’s first load', () => {
  it('is at most 150 KB of JS gzipped: the scripts index.html loads, not the pages loaded later', async () => {
    await using out = await tempDir('collie-first-load-');
    await buildWeb(out.path);
    const html = await readFile(join(out.path, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+\.js)"/gu)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    let bytes = 0;
    for (const s of scripts) bytes += gzipSync(await readFile(join(out.path, s))).length;
    console.log(`first load: ${scripts.join(', ')}: ${(bytes / 1024).toFixed(1)} KB gzipped (budget 150 KB)`);
    expect(bytes).toBeLessThanOrEqual(BUDGET);
  }, 120_000);
});
