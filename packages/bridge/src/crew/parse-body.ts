import { CrewError } from './listener';

/** A crew request's JSON body checked against its schema, or a `bad_request` naming what is wrong. */
export function parseBody<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, body: string, what: string): T {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new CrewError('bad_request', `crew: ${what} is not JSON`);
  }
  const r = schema.safeParse(json);
  if (!r.success) throw new CrewError('bad_request', `crew: ${what}: ${r.error.issues[0]?.path.join('.') ?? ''}: ${r.error.issues[0]?.message ?? 'does not match'}`.slice(0, 300));
  return r.data;
}
