/**
 * `collie pair`, `collie token`, `collie devices list|revoke`: through the running bridge's
 * devices socket, or on `<state>/devices.json` when no bridge runs (it reads the file at start).
 */
import { type Device, DevicesCommand, type DevicesReply } from '@collie/protocol';
import { appendAudit, ensureStateDir } from '../config';
import { DeviceStore, askBridge, formatCode, pairingLink, publicUrlFor, publicUrlHint, runDevicesCommand } from '../devices';
import { configOrThrow } from './config';

/** Where a command ran: the bridge answered, or the file was changed with no bridge running. */
export interface DevicesAnswer {
  reply: DevicesReply;
  bridge: boolean;
}

/**
 * Runs one devices command for a state dir. With no bridge, `url` and `publicUrl` are what the
 * bridge will have (its configured port).
 *
 * @example
 * const { reply } = await devicesCommand(stateDir, { op: 'token', name: 'ci' }, { url: 'http://127.0.0.1:8787', publicUrl: null });
 */
export async function devicesCommand(stateDir: string, raw: DevicesCommand, offline: { url: string; publicUrl: string | null }): Promise<DevicesAnswer> {
  // Checked here too, so a name is held to the same rule with or without a bridge.
  const parsed = DevicesCommand.safeParse(raw);
  if (!parsed.success) return { reply: { type: 'error', error: { code: 'bad_request', message: `collie: ${parsed.error.issues[0]?.message ?? 'bad command'}` } }, bridge: false };
  const cmd = parsed.data;
  const answered = await askBridge(stateDir, cmd);
  if (answered) return { reply: answered, bridge: true };
  await ensureStateDir(stateDir);
  const store = await DeviceStore.open(stateDir);
  try {
    const audit = (e: Record<string, unknown>) => void appendAudit(stateDir, e).catch(() => undefined);
    const reply = await runDevicesCommand(cmd, { store, run: '', audit, ...offline });
    return { reply, bridge: false };
  } finally {
    await store.close();
  }
}

async function run(cmd: DevicesCommand, env: NodeJS.ProcessEnv): Promise<DevicesAnswer> {
  const config = configOrThrow(env);
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const offline = { url, publicUrl: cmd.op === 'pair' ? (await publicUrlFor(config.port, config.publicUrl)).url : null };
  const answer = await devicesCommand(config.stateDir, cmd, offline);
  if (answer.reply.type === 'error') throw new Error(answer.reply.error.message);
  return answer;
}

/** The lines `collie pair` prints (the QR code is the CLI's). */
export interface PairingLines {
  lines: string[];
  /** The link for the QR code: the public address, or null when none is known. */
  qr: string | null;
  /** The link to print alone for `--url`. */
  url: string;
}

/** The words around a fresh pairing offer, shared by `collie pair` and `collie serve`. */
export function pairingLines(offer: { token: string; code: string; expiresAt: number }, url: string, publicUrl: string | null, port: number): PairingLines {
  const local = pairingLink(url, offer.token);
  const remote = publicUrl ? pairingLink(publicUrl, offer.token) : null;
  const lines = [
    remote ? `Pair your phone: scan the QR code, or open ${remote}` : `Pair this machine's browser: open ${local}`,
    ...(remote ? [`On this machine: ${local}`] : [publicUrlHint(port)]),
    `Or type the code ${formatCode(offer.code)} on the "Pair this device" page. The link and the code work once, for 10 minutes.`,
  ];
  return { lines, qr: remote, url: remote ?? local };
}

/** `collie pair [--watch-only]`: the lines, and the offer's right and expiry for `--json`. */
export async function pair(env: NodeJS.ProcessEnv = process.env, o: { watchOnly?: boolean } = {}): Promise<PairingLines & { maySend: boolean; expiresAt: number }> {
  const { reply } = await run({ op: 'pair', ...(o.watchOnly ? { maySend: false } : {}) }, env);
  if (reply.type !== 'pairing') throw new Error('collie pair: the bridge answered something else');
  const port = Number(new URL(reply.url).port) || 80;
  const lines = pairingLines(reply.offer, reply.url, reply.publicUrl, port);
  if (!reply.offer.maySend) lines.lines.push('The device that pairs with it will be watch-only: it sees everything and sends nothing (collie devices set <device> --may-send changes that).');
  return { ...lines, maySend: reply.offer.maySend, expiresAt: reply.offer.expiresAt };
}

export async function token(name: string, env: NodeJS.ProcessEnv = process.env, o: { watchOnly?: boolean } = {}): Promise<{ token: string; device: Device; bridge: boolean }> {
  const { reply, bridge } = await run({ op: 'token', name, ...(o.watchOnly ? { maySend: false } : {}) }, env);
  if (reply.type !== 'token') throw new Error('collie token: the bridge answered something else');
  return { token: reply.token, device: reply.device, bridge };
}

export async function devicesList(env: NodeJS.ProcessEnv = process.env): Promise<Device[]> {
  const { reply } = await run({ op: 'list' }, env);
  if (reply.type !== 'devices') throw new Error('collie devices: the bridge answered something else');
  return reply.devices;
}

export async function devicesRevoke(name: string, env: NodeJS.ProcessEnv = process.env): Promise<Device> {
  const { reply } = await run({ op: 'revoke', name }, env);
  if (reply.type !== 'revoked') throw new Error('collie devices: the bridge answered something else');
  return reply.device;
}

/** The outcome of `collie devices set`: what it printed, and its exit code. */
export interface DevicesSetResult {
  out: string;
  err: string;
  code: number;
}

/** The words for a device's right, as `collie devices list` and `set` print them. */
export const rightWords = (maySend: boolean) => (maySend ? 'may send' : 'watch only');

/**
 * `collie devices set <device> --watch-only|--may-send [--json]`: exactly one of the two
 * (else exit 2, a usage error); no such device exits 3; 0 when the device has that right now,
 * whether or not it had it before. A running bridge applies it at once: that device's next
 * write is refused (or let through), and its open pages reconnect to read the new right.
 */
export async function devicesSet(name: string, o: { watchOnly?: boolean; maySend?: boolean; json?: boolean }, env: NodeJS.ProcessEnv = process.env): Promise<DevicesSetResult> {
  const usage = 'usage: collie devices set <device> --watch-only | --may-send [--json]\n';
  if (!name.trim() || !o.watchOnly === !o.maySend) return { out: '', err: `collie devices set: name one device and exactly one of --watch-only and --may-send\n${usage}`, code: 2 };
  const maySend = o.maySend === true;
  const config = configOrThrow(env);
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const { reply, bridge } = await devicesCommand(config.stateDir, { op: 'set', name, maySend }, { url, publicUrl: null });
  if (reply.type === 'error') {
    const code = reply.error.code === 'not_found' ? 3 : reply.error.code === 'bad_request' ? 2 : 1;
    return o.json ? { out: `${JSON.stringify({ ok: false, error: reply.error })}\n`, err: '', code } : { out: '', err: `${reply.error.message}\n`, code };
  }
  if (reply.type !== 'set') return { out: '', err: 'collie devices set: the bridge answered something else\n', code: 1 };
  if (o.json) return { out: `${JSON.stringify({ ok: true, device: reply.device, changed: reply.changed, bridge })}\n`, err: '', code: 0 };
  const now = rightWords(reply.device.maySend);
  return { out: `${reply.changed ? `'${reply.device.name}' is now ${now}.` : `'${reply.device.name}' was already ${now}.`}\n`, err: '', code: 0 };
}

/** `collie devices list` as a table. */
export function formatDevices(devices: Device[], now = Date.now()): string {
  if (devices.length === 0) return 'No paired devices. Run collie pair, or collie token --name <name> for a script.';
  const ago = (t: number | null) => (t === null ? 'never' : `${Math.max(0, Math.round((now - t) / 60_000))} min ago`);
  const rows = devices.map((d) => [d.name, d.kind, rightWords(d.maySend), new Date(d.pairedAt).toISOString().slice(0, 16).replace('T', ' '), ago(d.lastSeen)]);
  const head = ['NAME', 'KIND', 'RIGHT', 'PAIRED (UTC)', 'LAST SEEN'];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [head, ...rows].map((r) => r.map((c, i) => c.padEnd(width[i]!)).join('  ').trimEnd()).join('\n');
}
