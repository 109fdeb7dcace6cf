/** `collie crew …` arguments: pure, so every shape of a mistyped command answers with the usage. */
import { MemberName, parseListen } from '@collie/protocol';

export const USAGE = `usage: collie crew create [--name N] --listen <host:port> [--json]
       collie crew invite [--no-qr] [--json]
       collie crew join <token> [--name N] --listen <host:port> [--json]
       collie crew list [--json]
       collie crew leave [--dissolve] [--json]
       collie crew remove <member> [--json]
       collie crew update --all [--json]`;

export type CrewArgs =
  | { verb: 'create'; name: string | null; listen: string; json: boolean }
  | { verb: 'invite'; qr: boolean; json: boolean }
  | { verb: 'join'; token: string; name: string | null; listen: string; json: boolean }
  | { verb: 'list'; json: boolean }
  | { verb: 'leave'; dissolve: boolean; json: boolean }
  | { verb: 'remove'; member: string; json: boolean }
  | { verb: 'update'; json: boolean };

/** The parsed command, or a sentence of what is wrong (the CLI prints it and the usage, exit 2). */
export function parseCrewArgs(argv: readonly string[]): { ok: true; args: CrewArgs } | { ok: false; error: string } {
  const [verb, ...rest] = argv;
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  const takes = new Set(['--name', '--listen']);
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (takes.has(a)) {
      const v = rest[++i];
      if (v === undefined || v.startsWith('--')) return { ok: false, error: `${a} needs a value` };
      flags.set(a, v);
    } else if (a.startsWith('--')) {
      if (!['--json', '--no-qr', '--dissolve', '--all'].includes(a)) return { ok: false, error: `unknown option ${a.slice(0, 40)}` };
      flags.set(a, true);
    } else positional.push(a);
  }
  const json = flags.has('--json');
  const allowed: Record<string, string[]> = {
    create: ['--name', '--listen', '--json'],
    invite: ['--no-qr', '--json'],
    join: ['--name', '--listen', '--json'],
    list: ['--json'],
    leave: ['--dissolve', '--json'],
    remove: ['--json'],
    update: ['--all', '--json'],
  };
  if (verb === undefined || !Object.hasOwn(allowed, verb)) return { ok: false, error: verb === undefined ? 'name a verb' : `no verb '${verb.slice(0, 40)}'` };
  for (const f of flags.keys()) if (!allowed[verb]!.includes(f)) return { ok: false, error: `${verb} takes no ${f}` };
  const wantPositional = verb === 'join' || verb === 'remove' ? 1 : 0;
  if (positional.length !== wantPositional) return { ok: false, error: wantPositional ? `${verb} takes one ${verb === 'join' ? '<token>' : '<member>'}` : `${verb} takes no ${positional.length ? `'${positional[0]!.slice(0, 40)}'` : ''}` };
  const name = flags.get('--name');
  if (typeof name === 'string') {
    const n = MemberName.safeParse(name);
    if (!n.success) return { ok: false, error: `--name: ${n.error.issues[0]?.message ?? 'not a name'}` };
  }
  const listen = flags.get('--listen');
  if ((verb === 'create' || verb === 'join') && typeof listen !== 'string') return { ok: false, error: `${verb} needs --listen <host:port>: the address other machines reach this one on` };
  if (typeof listen === 'string') {
    const l = parseListen(listen);
    if (!l.ok) return { ok: false, error: l.error };
  }
  switch (verb) {
    case 'create':
      return { ok: true, args: { verb, name: typeof name === 'string' ? name : null, listen: listen as string, json } };
    case 'join':
      return { ok: true, args: { verb, token: positional[0]!, name: typeof name === 'string' ? name : null, listen: listen as string, json } };
    case 'invite':
      return { ok: true, args: { verb, qr: !flags.has('--no-qr'), json } };
    case 'list':
      return { ok: true, args: { verb, json } };
    case 'leave':
      return { ok: true, args: { verb, dissolve: flags.has('--dissolve'), json } };
    case 'remove':
      return { ok: true, args: { verb, member: positional[0]!, json } };
    default:
      if (!flags.has('--all')) return { ok: false, error: 'update needs --all: it tells each member what to update' };
      return { ok: true, args: { verb: 'update', json } };
  }
}
