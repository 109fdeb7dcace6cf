import { statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { artifactPath, launchChromium, phoneContext, repoRoot } from '../src';

describe('Chromium', () => {
  test('a phone context loads a loopback page and keeps a screenshot as an artefact', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><meta name="viewport" content="width=device-width"><h1 id="t">Collie</h1>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      await using browser = await launchChromium();
      await using context = await phoneContext(browser);
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(await page.textContent('#t')).toBe('Collie');
      // A string, because this package type-checks without the DOM library.
      const view = await page.evaluate("({ w: innerWidth, h: innerHeight, dpr: devicePixelRatio, touch: 'ontouchstart' in window })");
      expect(view).toEqual({ w: 390, h: 844, dpr: 2, touch: true });
      const shot = artifactPath('testkit/phone-context.png');
      expect(shot).toBe(`${repoRoot}/.artifacts/testkit/phone-context.png`);
      await page.screenshot({ path: shot });
      expect(statSync(shot).size).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  });
});
