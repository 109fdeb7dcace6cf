import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { CrewView, Snapshot } from '@collie/protocol';
import { ApiError, fail } from './api-error';
import { SECURITY_HEADERS, hostAllowed, originAllowed } from './security';
import type { PaneRouteDeps } from './route-deps';
import { panesRoutes } from './routes/panes';
import { serveWeb } from './static';
import { type AuthDeps, requireDevice, type Who } from './auth';
import { devicesRoutes, type DevicesRouteDeps } from './routes/devices';
import type { DurableService } from '../durable';
import { durableRoutes } from './routes/durable';
import { paneChatRoutes } from './routes/pane-chat';
import type { PaneChats } from '../transcripts';
import type { PushService } from '../push';
import { pushRoutes } from '../push/routes';
import { walkyRoutes } from './routes/walky';
import { crewRoutes, type CrewAdminRoutes } from './routes/crew';
import { nerveRoutes } from './routes/nerve';
import type { NerveLink } from '../nerve';
import type { PhoneWalky } from '../walky';

/** Request bodies the API takes are small JSON objects; anything bigger is refused. */
export const MAX_BODY_BYTES = 64 * 1024;

export interface AppDeps extends PaneRouteDeps {
  version: string;
  run: string;
  webDir: string;
  /** Host header values allowed (see `allowedHosts`); read per request so the port can be set after listen. */
  hosts: () => ReadonlySet<string>;
  snapshot: () => Snapshot;
  audit: (entry: Record<string, unknown>) => void;
  /** False while the bridge is still finding its panes (see `startBridge`); absent means ready. */
  ready?: () => boolean;
  /** Durable agents' taps, closed list and reads (absent: no /api/durable routes). */
  durable?: Pick<DurableService, 'tap' | 'closed' | 'read'>;
  /** Who may use the API: every `/api` route but pairing needs a device (see `auth.ts`). */
  auth: AuthDeps;
  devices: DevicesRouteDeps['devices'];
  /** The public address for links made from the phone (Devices → Pair another device). */
  publicUrl?: DevicesRouteDeps['publicUrl'];
  /** Work from the phone (`workbench/`): routes mounted under `/api`. */
  workbench?: { routes: Hono; isRawUpload: (method: string, path: string) => boolean };
  /** Panes' chats read from their agents' transcripts (absent: no chat route). */
  chats?: Pick<PaneChats, 'page'>;
  /** Web Push subscriptions and settings (absent: no /api/push routes). */
  push?: PushService;
  /** Walky talky for the phone (null while it starts; absent: no /api/walky routes). */
  walky?: () => PhoneWalky | null;
  /** The crew as the running bridge knows it (absent: no /api/crew route). */
  crew?: () => CrewView;
  /** The Crew page's invite and remove (on a lead). */
  crewAdmin?: CrewAdminRoutes;
  /** Nerve's API for a paired device (absent: no /api/nerve routes). */
  nerve?: { link: Pick<NerveLink, 'forward'>; apiFile: string | null };
  /** Every past session of the agents on this machine (`sessions/routes.ts`; absent: no /api/sessions routes). */
  sessions?: Hono;
}

/** Who made a write, for its audit line: the paired device (name and id) or the proxy's login; nothing when none was let in. */
function byWhom(who: Who | undefined): { by?: string } {
  if (!who) return {};
  return { by: who.kind === 'device' ? `device ${who.device.name} (${who.device.id})` : `login ${who.login}` };
}

/** The bridge's HTTP app: security gates, the API, then the web app's files. */
export function createApp(d: AppDeps): Hono {
  const app = new Hono();
  const rawUpload = (c: Context) => d.workbench?.isRawUpload(c.req.method, c.req.path) === true;

  /** A write refused at the gates is in the audit log too (never its body). */
  const refuse = (c: Context, e: ApiError) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') d.audit({ method: c.req.method, path: c.req.path, status: e.status, code: e.code });
    return fail(c, e);
  };

  app.use('*', async (c, next) => {
    if (!hostAllowed(c.req.header('host'), d.hosts())) {
      return refuse(c, new ApiError('forbidden_host', `bridge: Host '${c.req.header('host') ?? ''}' is not allowed; add it to COLLIE_ALLOWED_HOSTS`));
    }
    await next();
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) c.header(k, v);
  });

  app.use('/api/*', async (c, next) => {
    if (!originAllowed(c.req.header('origin'), c.req.header('sec-fetch-site'), c.req.header('host'))) {
      return refuse(c, new ApiError('forbidden_origin', 'bridge: requests from another origin are refused'));
    }
    const write = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    // The upload route takes raw bytes (up to 10 MB) and checks its own type and size.
    if (write && !rawUpload(c)) {
      const type = c.req.header('content-type') ?? '';
      if (!/^application\/json\s*(;|$)/i.test(type)) {
        return refuse(c, new ApiError('unsupported_media_type', 'bridge: send the body as application/json'));
      }
    }
    await next();
    const refused = c.get('refused');
    if (write) d.audit({ method: c.req.method, path: c.req.path, status: c.res.status, ...byWhom(c.get('who') as Who | undefined), ...(refused ?? {}) });
  });

  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => fail(c, new ApiError('payload_too_large', `bridge: the body is over ${MAX_BODY_BYTES} bytes`)),
  });
  app.use('/api/*', (c, next) => (rawUpload(c) ? next() : limit(c, next)));

  app.use('/api/*', requireDevice(d.auth));

  app.get('/api/health', (c) => c.json({ ok: true, version: d.version, run: d.run }));
  app.get('/api/snapshot', (c) => (d.ready && !d.ready() ? fail(c, new ApiError('starting', 'bridge: still finding its panes; try again in a moment')) : c.json(d.snapshot())));
  // Before the panes routes, whose catch-all would answer `/api/panes/:id/send-files` first.
  if (d.workbench) app.route('/api', d.workbench.routes);
  if (d.chats) app.route('/api/panes', paneChatRoutes(d.chats));
  app.route('/api/panes', panesRoutes(d));
  if (d.durable) app.route('/api/durable', durableRoutes(d.durable));
  app.route('/api', devicesRoutes(d));
  if (d.push) app.route('/api/push', pushRoutes(d.push));
  if (d.walky) app.route('/api/walky', walkyRoutes(d.walky));
  if (d.crew) app.route('/api/crew', crewRoutes(d.crew, d.crewAdmin));
  if (d.nerve) app.route('/api/nerve', nerveRoutes(d.nerve.link, d.nerve.apiFile));
  if (d.sessions) app.route('/api/sessions', d.sessions);
  app.all('/api/*', (c) => fail(c, new ApiError('not_found', `bridge: no route ${c.req.method} ${c.req.path}`)));

  serveWeb(app, d.webDir);

  app.onError((err, c) => fail(c, err));
  app.notFound((c) => fail(c, new ApiError('not_found', `bridge: nothing at ${c.req.path}`)));
  return app;
}
