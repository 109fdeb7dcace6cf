import { Hono } from 'hono';
import type { CrewView } from '@collie/protocol';

/** `GET /api/crew`: the crew as the running bridge knows it (docs/crew.md). */
export function crewRoutes(view: () => CrewView): Hono {
  const r = new Hono();
  r.get('/', (c) => c.json(view()));
  return r;
}
