import { Hono, type Context } from 'hono';
import { PushPrefsRequest, PushPresenceRequest, PushSubscribeRequest, PushTestRequest, PushUnsubscribeRequest } from '@collie/protocol';
import { ApiError, fail } from '../http/api-error';
import { body } from '../http/routes/sends';
import type { PushService } from './index';

/** Whose subscriptions: the paired device, or the proxy's login (one person's own browsers). */
function deviceOf(c: Context): string {
  const who = c.get('who');
  return who.kind === 'device' ? who.device.id : `login:${who.login}`;
}

/**
 * `/api/push/…`, behind the device gate like every `/api` route. The endpoint must be https on
 * a public host name (`pushEndpointProblem`): the bridge connects there, so a phone may not
 * point it at loopback or the LAN.
 */
export function pushRoutes(push: PushService): Hono {
  const r = new Hono();
  r.get('/', (c) => c.json(push.status(deviceOf(c))));

  r.post('/subscribe', async (c) => {
    const b = await body(c, PushSubscribeRequest);
    if (b instanceof ApiError) return fail(c, b);
    const problem = push.endpointProblem(b.subscription.endpoint);
    if (problem) return fail(c, new ApiError('bad_endpoint', `bridge: subscription.endpoint: ${problem}`));
    if (!(await push.subscribe(deviceOf(c), b.subscription))) return fail(c, new ApiError('conflict', 'bridge: too many push subscriptions; remove some devices first'));
    return c.json(push.status(deviceOf(c)));
  });

  r.post('/unsubscribe', async (c) => {
    const b = await body(c, PushUnsubscribeRequest);
    if (b instanceof ApiError) return fail(c, b);
    await push.unsubscribe(deviceOf(c), b.endpoint);
    return c.json(push.status(deviceOf(c)));
  });

  r.post('/prefs', async (c) => {
    const b = await body(c, PushPrefsRequest);
    if (b instanceof ApiError) return fail(c, b);
    await push.setPrefs(b.prefs);
    return c.json(push.status(deviceOf(c)));
  });

  r.post('/presence', async (c) => {
    const b = await body(c, PushPresenceRequest);
    if (b instanceof ApiError) return fail(c, b);
    // Hidden now means visible until now: both count for the next `awayMs`.
    push.presence(deviceOf(c));
    return c.json({ ok: true });
  });

  r.post('/test', async (c) => {
    const b = await body(c, PushTestRequest);
    if (b instanceof ApiError) return fail(c, b);
    return c.json(await push.test(deviceOf(c)));
  });
  return r;
}
