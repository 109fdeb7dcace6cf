/**
 * `<state>/devices.sock` (0600, in the 0700 state dir): the local CLI's way to the running
 * bridge's devices, so a new token or a revocation takes effect at once and one process alone
 * writes devices.json. One JSON line each way per connection; no token needed (the file mode is
 * the check, as for every local socket).
 */
import { chmod, rm } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { DevicesCommand, DevicesReply } from '@collie/protocol';
import { type DeviceOps, runDevicesCommand } from './commands';

const MAX_LINE = 16 * 1024;

export function devicesSocketPath(stateDir: string): string {
  return join(stateDir, 'devices.sock');
}

/** Whether something answers on the socket path. */
function listening(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

export async function serveDevicesSocket(stateDir: string, ops: DeviceOps): Promise<{ close(): Promise<void> }> {
  const path = devicesSocketPath(stateDir);
  // A socket file left by a bridge that was killed answers nobody: remove it. One that answers
  // belongs to a live bridge of this state dir, which the run-file check should have caught.
  if (await listening(path)) throw new Error(`collie: another bridge serves ${path}; see collie status`);
  await rm(path, { force: true });
  const server: Server = createServer((conn) => {
    let buf = '';
    conn.setEncoding('utf8');
    conn.on('error', () => conn.destroy());
    conn.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.length > MAX_LINE) return void conn.end(`${JSON.stringify(err('bad_request', 'devices socket: line over 16 KiB'))}\n`);
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      conn.pause();
      void answer(buf.slice(0, nl)).then((reply) => conn.end(`${JSON.stringify(reply)}\n`));
    });
  });
  const answer = async (line: string): Promise<DevicesReply> => {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return err('bad_json', 'devices socket: that line is not JSON');
    }
    const cmd = DevicesCommand.safeParse(json);
    if (!cmd.success) return err('bad_request', `devices socket: ${cmd.error.issues[0]?.message ?? 'unknown command'}`);
    try {
      return await runDevicesCommand(cmd.data, ops);
    } catch (e) {
      return err('internal', `devices socket: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
  return {
    close: () => new Promise<void>((resolve) => server.close(() => void rm(path, { force: true }).then(() => resolve()))),
  };
}

const err = (code: 'bad_request' | 'bad_json' | 'internal', message: string): DevicesReply => ({ type: 'error', error: { code, message } });

/** Asks the running bridge; null when none listens on this state dir. */
export function askBridge(stateDir: string, cmd: DevicesCommand, timeoutMs = 5000): Promise<DevicesReply | null> {
  return new Promise((resolve, reject) => {
    const s = connect(devicesSocketPath(stateDir));
    let buf = '';
    let connected = false;
    const timer = setTimeout(() => (s.destroy(), reject(new Error('collie: the bridge did not answer on its devices socket within 5 s'))), timeoutMs);
    s.setEncoding('utf8');
    s.once('connect', () => {
      connected = true;
      s.write(`${JSON.stringify(cmd)}\n`);
    });
    s.on('data', (d: string) => (buf += d));
    s.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (!connected && (e.code === 'ENOENT' || e.code === 'ECONNREFUSED')) resolve(null);
      else reject(new Error(`collie: devices socket: ${e.message}`));
    });
    s.once('end', () => {
      clearTimeout(timer);
      const parsed = DevicesReply.safeParse(safeJson(buf.trim()));
      if (parsed.success) resolve(parsed.data);
      else reject(new Error('collie: the bridge answered its devices socket with something unreadable'));
    });
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
