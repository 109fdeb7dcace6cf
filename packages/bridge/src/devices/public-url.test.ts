import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { publicUrlFor, tailscaleUrlFromStatus } from './public-url';

// The shape `tailscale serve status --json` prints after `tailscale serve --bg 8787` (1.7x).
const status = {
  TCP: { '443': { HTTPS: true } },
  Web: { 'box.tail1234.ts.net:443': { Handlers: { '/': { Proxy: 'http://127.0.0.1:8787' } } } },
};

describe('the phone address from tailscale serve', () => {
  it('finds the https name that proxies this port at /', () => {
    expect(tailscaleUrlFromStatus(status, 8787)).toBe('https://box.tail1234.ts.net');
    expect(tailscaleUrlFromStatus(status, 9999)).toBeNull();
    const other = { Web: { 'Box.tail1234.ts.net:8443': { Handlers: { '/': { Proxy: 'localhost:8787' } } } } };
    expect(tailscaleUrlFromStatus(other, 8787)).toBe('https://box.tail1234.ts.net:8443');
    const sub = { Web: { 'box.tail1234.ts.net:443': { Handlers: { '/collie': { Proxy: 'http://127.0.0.1:8787' } } } } };
    expect(tailscaleUrlFromStatus(sub, 8787)).toBeNull();
    const fg = { Foreground: { abc: status } };
    expect(tailscaleUrlFromStatus(fg, 8787)).toBe('https://box.tail1234.ts.net');
    expect(tailscaleUrlFromStatus({ Web: { 'box:443': { Handlers: { '/': { Proxy: 'http://10.0.0.5:8787' } } } } }, 8787)).toBeNull();
  });

  it('never throws on any JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 65535 }), (j, port) => void tailscaleUrlFromStatus(j, port)));
  });

  it('COLLIE_PUBLIC_URL wins; no tailscale means no address', async () => {
    const none = () => Promise.reject(new Error('tailscale: not found'));
    expect(await publicUrlFor(8787, 'https://proxy.example/', none)).toEqual({ url: 'https://proxy.example', source: 'COLLIE_PUBLIC_URL' });
    expect(await publicUrlFor(8787, null, none)).toEqual({ url: null, source: null });
    expect(await publicUrlFor(8787, null, () => Promise.resolve(JSON.stringify(status)))).toEqual({ url: 'https://box.tail1234.ts.net', source: 'tailscale serve' });
  });
});
