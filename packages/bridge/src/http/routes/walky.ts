import { Hono, type Context } from 'hono';
import { MessageId, WalkyBroadcastRequest, WalkyPhoneSend } from '@collie/protocol';
import type { PhoneWalky } from '../../walky';
import { ApiError, fail } from '../api-error';
import { body } from './sends';

/** The operator's name in a message header: the device's own name (`phone-altan`), or the proxy's login. */
function deviceName(c: Context): string {
  const who = c.get('who');
  return who.kind === 'device' ? who.device.name : who.login;
}

/**
 * `/api/walky/…`, behind the device gate like every route: the log for a pane (the Messages
 * sheet), the operator's message to one pane or as a reply, and the broadcast to every agent.
 * Receipts change later as `walky.updated` events on `/api/events`.
 */
export function walkyRoutes(walky: () => PhoneWalky | null): Hono {
  const r = new Hono();
  const ready = (c: Context): PhoneWalky | Response => walky() ?? fail(c, new ApiError('starting', 'bridge: walky talky is still starting; try again in a moment'));
  r.get('/messages', async (c) => {
    const w = ready(c);
    if (w instanceof Response) return w;
    const pane = c.req.query('pane');
    if (pane !== undefined && (pane.length === 0 || pane.length > 200)) return fail(c, new ApiError('bad_request', 'bridge: ?pane= names a pane id, 1 to 200 characters'));
    // A crew member's pane on a lead: the list comes from that member's own log, through the lead.
    if (pane?.startsWith('@')) {
      const list = await w.memberMessages(pane);
      if (!list) return fail(c, new ApiError('member_unreachable', `crew: the member of ${pane.slice(0, 100)} cannot be read now`));
      return c.json({ machine: pane.slice(1, pane.indexOf('/')), messages: list, refusals: w.refusals() });
    }
    return c.json({ machine: w.machine, messages: w.messages(pane), refusals: w.refusals() });
  });
  // A receipt as `collie walky status <id>` prints it: one message, or a broadcast's line per pane.
  r.get('/status', async (c) => {
    const w = ready(c);
    if (w instanceof Response) return w;
    const id = MessageId.safeParse(c.req.query('id') ?? '');
    if (!id.success) return fail(c, new ApiError('bad_request', 'bridge: ?id= names a message id, wt_ and 12 letters or digits'));
    const a = await w.status(id.data);
    if (a.verb === 'error') return fail(c, new ApiError('not_found', `bridge: ${a.error.message}`));
    return c.json(a.verb === 'status' && a.broadcast ? { broadcast: a.broadcast } : { message: a.verb === 'status' ? a.message : undefined });
  });
  r.post('/send', async (c) => {
    const w = ready(c);
    if (w instanceof Response) return w;
    const b = await body(c, WalkyPhoneSend);
    if (b instanceof ApiError) return fail(c, b);
    const to = 'reply_to' in b ? { replyTo: b.reply_to, ...(b.to !== undefined ? { address: b.to } : {}) } : { address: b.to };
    const m = await w.send(deviceName(c), to, b.body, b.id);
    return 'unknown' in m ? fail(c, new ApiError('not_found', `bridge: ${m.unknown}`)) : c.json({ message: m });
  });
  r.post('/broadcast', async (c) => {
    const w = ready(c);
    if (w instanceof Response) return w;
    const b = await body(c, WalkyBroadcastRequest);
    if (b instanceof ApiError) return fail(c, b);
    // "all", "local", this machine's own name (and crew id), and on a lead each member's name.
    const machines = w.machines();
    if (b.member !== undefined && !machines.includes(b.member)) {
      const why = machines.length > 4 ? `the choices are ${machines.join(', ')}` : 'no crew on this machine';
      return fail(c, new ApiError('bad_request', `bridge: no machine '${b.member.slice(0, 63)}' here (${why})`.slice(0, 300)));
    }
    const sent = await w.broadcast(deviceName(c), b.body, b.member === 'all' ? undefined : b.member);
    return c.json({ machine: w.machine, ...sent, refusals: w.refusals() });
  });
  return r;
}
