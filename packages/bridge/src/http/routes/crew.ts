import { Hono } from 'hono';
import { CrewInviteRequest, CrewRemoveRequest, type CrewInviteAnswer, type CrewRemoveAnswer, type CrewView } from '@collie/protocol';
import { ApiError, fail } from '../api-error';
import { body } from './sends';

/** The lead owner's actions on the Crew page (absent: the page can only read). */
export interface CrewAdminRoutes {
  invite(): Promise<CrewInviteAnswer>;
  remove(member: string): Promise<CrewRemoveAnswer>;
}

/**
 * `GET /api/crew`: the crew as the running bridge knows it; on a lead `POST /api/crew/invite`
 * (a single-use token, shown once, with its QR code) and `POST /api/crew/remove` (docs/crew.md).
 */
export function crewRoutes(view: () => CrewView, admin?: CrewAdminRoutes): Hono {
  const r = new Hono();
  r.get('/', (c) => c.json(view()));
  if (!admin) return r;
  r.post('/invite', async (c) => {
    const b = await body(c, CrewInviteRequest);
    if (b instanceof ApiError) return fail(c, b);
    // The token goes to this phone once; it is never logged (the audit line has no body).
    return c.json(await admin.invite());
  });
  r.post('/remove', async (c) => {
    const b = await body(c, CrewRemoveRequest);
    if (b instanceof ApiError) return fail(c, b);
    return c.json(await admin.remove(b.member));
  });
  return r;
}
