/**
 * The bridge's settings: one zod schema over the merged environment, each variable with its
 * default and an error message that names it and says what it accepts.
 */
import { readFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { z } from 'zod';
import { parseNerveSources } from '../nerve/sources';

/** A setting's value that failed to parse, with the reason. */
class Invalid {
  constructor(readonly message: string) {}
}

/** A variable's raw value: unset and empty both mean "use the default". */
function setting<T>(fallback: T, parse: (raw: string) => T | Invalid) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): T => {
      const value = raw?.trim() ?? '';
      if (value === '') return fallback;
      const out = parse(value);
      if (out instanceof Invalid) {
        ctx.addIssue(out.message);
        return z.NEVER;
      }
      return out;
    });
}

function parsePort(raw: string): number | Invalid {
  const n = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  return n <= 65535 ? n : new Invalid(`${JSON.stringify(raw)} is not a port number (0 to 65535; 0 picks a free port)`);
}

/**
 * Loopback only (an invariant of the design): the phone reaches the bridge through
 * `tailscale serve` or a reverse proxy on this machine, never by the bridge listening on a
 * network interface.
 */
/** How long a send may be held for its pane: whole minutes, 1 to 1440. */
function parseMinutes(raw: string): number | Invalid {
  const n = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  return n >= 1 && n <= 1440 ? n : new Invalid(`${JSON.stringify(raw)} is not a number of minutes from 1 to 1440`);
}

/** A push delay or window in whole seconds, 0 to 86400. */
function parseSeconds(raw: string): number | Invalid {
  const n = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  return n <= 86_400 ? n : new Invalid(`${JSON.stringify(raw)} is not a number of seconds from 0 to 86400`);
}

function parseHost(raw: string): string | Invalid {
  const host = raw.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || host === '::1' || (isIPv4(host) && host.startsWith('127.'))) return host;
  return new Invalid(
    `${JSON.stringify(raw)} is not a loopback address. The bridge listens only on 127.0.0.1, ::1 or localhost; ` +
      'to reach it from another device, put tailscale serve or a reverse proxy in front of it ' +
      'and add that name to COLLIE_ALLOWED_HOSTS.',
  );
}

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST_HEADER = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*\\.?|\\[[0-9a-f:.]+\\])(?::\\d{1,5})?$`);

/** Host header names as a browser sends them: a DNS name or bracketed IPv6, with an optional port. */
function parseHostList(raw: string): string[] | Invalid {
  const hosts = raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  const bad = hosts.filter((h) => !HOST_HEADER.test(h));
  if (bad.length > 0) {
    return new Invalid(
      `${bad.map((h) => JSON.stringify(h)).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not a host name ` +
        '(a comma-separated list of names such as my-laptop.tail1234.ts.net, no wildcards)',
    );
  }
  return [...new Set(hosts)];
}

function parseSwitch(raw: string): boolean | Invalid {
  const v = raw.toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(v)) return true;
  if (['0', 'false', 'off', 'no'].includes(v)) return false;
  return new Invalid(`${JSON.stringify(raw)} is not on or off (use 1/true/on/yes or 0/false/off/no)`);
}

/** The https (or http) address a phone opens, with no path: where the pairing QR code points. */
function parsePublicUrl(raw: string): string | Invalid {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return new Invalid(`${JSON.stringify(raw)} is not a URL (for example https://my-laptop.tail1234.ts.net)`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search || url.hash || url.username) {
    return new Invalid(`${JSON.stringify(raw)} must be an http(s) address with no path, query or user (for example https://my-laptop.tail1234.ts.net)`);
  }
  return url.origin;
}

/** A login as tailscale sends it in Tailscale-User-Login (an email address, or a GitHub name@github). */
function parseLogin(raw: string): string | Invalid {
  return /^[^\s,]{1,200}$/.test(raw) ? raw : new Invalid(`${JSON.stringify(raw)} is not a login (one, without spaces or commas, as Tailscale-User-Login carries it)`);
}

/**
 * `COLLIE_TRUSTED_PROXY_USER`: the proxy's user as a uid, or a user name looked up in
 * `/etc/passwd` (a user known only elsewhere, LDAP say, is given by uid).
 */
function parseUser(raw: string, passwd: () => string = () => readFileSync('/etc/passwd', 'utf8')): number | Invalid {
  if (/^\d{1,10}$/.test(raw)) return Number(raw) <= 0xffff_fffe ? Number(raw) : new Invalid(`${JSON.stringify(raw)} is not a uid`);
  let text = '';
  try {
    text = passwd();
  } catch {
    // No passwd file: only a uid will do.
  }
  for (const line of text.split('\n')) {
    const f = line.split(':');
    if (f[0] === raw && f.length >= 3 && /^\d+$/.test(f[2]!)) return Number(f[2]);
  }
  return new Invalid(`${JSON.stringify(raw)} is not a user of this machine (give the user tailscaled or your proxy runs as, by name or uid; root is 0)`);
}

/** `COLLIE_NERVE_API`: Nerves' api.json files and folders of Nerve state dirs, `:`-separated (nerve/sources.ts). */
function parseApiFile(raw: string): string | Invalid {
  const got = parseNerveSources(raw);
  return got.ok ? raw : new Invalid(`${JSON.stringify(raw.slice(0, 100))} is not ':'-separated absolute paths to a Nerve's api.json or a folder of Nerve state dirs: ${got.message}`);
}

/** Machine names appear in walky addresses (`<member>/<pane>#<token>`): no `/`, `#` or spaces. */
export const MACHINE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

function parseMachine(raw: string): string | Invalid {
  return MACHINE_NAME.test(raw)
    ? raw
    : new Invalid(`${JSON.stringify(raw)} is not a machine name (letters, digits, '.', '_', '-'; at most 63)`);
}

/** A host name made fit for {@link MACHINE_NAME}, for the default machine name. */
export function machineNameFrom(hostname: string): string {
  const name = hostname.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 63);
  return name === '' ? 'localhost' : name;
}

/**
 * The schema of the settings read from the merged environment. `machine` defaults to the
 * host name given.
 */
export function settingsSchema(defaults: { machine: string }) {
  return z
    .object({
      COLLIE_PORT: setting(8787, parsePort),
      COLLIE_HOST: setting('127.0.0.1', parseHost),
      COLLIE_ALLOWED_HOSTS: setting<string[]>([], parseHostList),
      COLLIE_REDACT: setting(true, parseSwitch),
      COLLIE_MACHINE: setting(defaults.machine, parseMachine),
      COLLIE_HOLD_MINUTES: setting(10, parseMinutes),
      COLLIE_WALKY: setting(true, parseSwitch),
      COLLIE_SKILL_SYNC: setting(true, parseSwitch),
      COLLIE_PUBLIC_URL: setting<string | null>(null, parsePublicUrl),
      COLLIE_TRUSTED_USER: setting<string | null>(null, parseLogin),
      COLLIE_TRUSTED_PROXY_USER: setting(0, (raw) => parseUser(raw)),
      COLLIE_PUSH_DELAY: setting(30, parseSeconds),
      COLLIE_PUSH_AWAY: setting(120, parseSeconds),
      COLLIE_NERVE_API: setting<string | null>(null, parseApiFile),
    })
    .transform((s) => ({
      port: s.COLLIE_PORT,
      host: s.COLLIE_HOST,
      allowedHosts: s.COLLIE_ALLOWED_HOSTS,
      redact: s.COLLIE_REDACT,
      machine: s.COLLIE_MACHINE,
      holdMinutes: s.COLLIE_HOLD_MINUTES,
      walky: s.COLLIE_WALKY,
      skillSync: s.COLLIE_SKILL_SYNC,
      publicUrl: s.COLLIE_PUBLIC_URL,
      trustedUser: s.COLLIE_TRUSTED_USER,
      trustedProxyUid: s.COLLIE_TRUSTED_PROXY_USER,
      pushDelaySeconds: s.COLLIE_PUSH_DELAY,
      pushAwaySeconds: s.COLLIE_PUSH_AWAY,
      nerveApiFile: s.COLLIE_NERVE_API,
    }));
}

/** The settings, typed. */
export type Settings = z.output<ReturnType<typeof settingsSchema>>;

/** zod issues as `VARIABLE: message` lines. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || 'config'}: ${issue.message}`);
}
