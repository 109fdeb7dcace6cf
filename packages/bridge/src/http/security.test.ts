import { describe, expect, it } from 'vitest';
import { allowedHosts, hostAllowed, originAllowed } from './security';

describe('security gates', () => {
  const hosts = allowedHosts(8787, ['box.tail1234.ts.net']);

  it('answers loopback names at its port and names the user added, nothing else', () => {
    for (const h of ['127.0.0.1:8787', 'localhost:8787', 'LOCALHOST:8787', '[::1]:8787', 'box.tail1234.ts.net', 'box.tail1234.ts.net:443']) expect(hostAllowed(h, hosts)).toBe(true);
    for (const h of [undefined, '', 'evil.example:8787', '127.0.0.1:9999', 'localhost', 'attacker.localhost:8787', '127.0.0.1:8787.evil']) expect(hostAllowed(h, hosts)).toBe(false);
  });

  it('takes same-origin browsers and non-browser clients, refuses other sites', () => {
    expect(originAllowed('http://127.0.0.1:8787', 'same-origin', '127.0.0.1:8787')).toBe(true);
    expect(originAllowed(undefined, undefined, '127.0.0.1:8787')).toBe(true);
    expect(originAllowed(undefined, 'none', '127.0.0.1:8787')).toBe(true);
    expect(originAllowed('http://evil.example', 'cross-site', '127.0.0.1:8787')).toBe(false);
    expect(originAllowed('null', undefined, '127.0.0.1:8787')).toBe(false);
    expect(originAllowed('file://x', undefined, '127.0.0.1:8787')).toBe(false);
    expect(originAllowed(undefined, 'cross-site', '127.0.0.1:8787')).toBe(false);
    expect(originAllowed(undefined, 'same-site', '127.0.0.1:8787')).toBe(false);
    expect(originAllowed('http://localhost:8787', undefined, '127.0.0.1:8787')).toBe(false);
  });
});
