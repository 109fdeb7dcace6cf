import { Hono } from 'hono';
import { FORWARDED, type NerveLink } from '../../nerve';
import { ApiError, fail } from '../api-error';

/**
 * `/api/nerve/*`: a paired device's way to Nerve's API (`/api/nerve/sessions/…` is Nerve's
 * `/api/sessions/…`), behind the bridge's own gates; the bridge adds Nerve's token. Nerve's
 * answers, errors included, come back as Nerve gave them.
 */
export function nerveRoutes(link: Pick<NerveLink, 'forward'>, apiFile: string | null): Hono {
  const r = new Hono();
  r.all('/*', async (c) => {
    if (!FORWARDED.has(c.req.method)) return fail(c, new ApiError('method_not_allowed', `bridge: ${c.req.method} is not forwarded to Nerve`));
    const url = new URL(c.req.url);
    const rest = url.pathname.slice('/api/nerve'.length);
    if (!/^\/[A-Za-z0-9_/.-]*$/.test(rest) || rest.includes('..') || rest.startsWith('/events')) return fail(c, new ApiError('not_found', `bridge: no Nerve route ${rest.slice(0, 100)}`));
    const body = c.req.method === 'GET' || c.req.method === 'DELETE' ? null : await c.req.text();
    const got = await link.forward(c.req.method, `/api${rest}${url.search}`, body);
    if (!got) return fail(c, new ApiError('nerve_unavailable', apiFile === null ? 'bridge: no Nerve is configured' : `bridge: Nerve is not running (no answer at the address in ${apiFile})`));
    return c.json(got.body as object, got.status as 200);
  });
  return r;
}
