/**
 * `<state>/devices.sock` (0600, in the 0700 state dir): the local CLI's way to the running
 * bridge's devices, so a new token or a revocation takes effect at once and one process alone
 * writes devices.json. One JSON line each way per connection; no token needed (the file mode is
 * the check, as for every local socket).
 */
import { join } from 'node:path';
import { DevicesCommand, DevicesReply } from '@collie/protocol';
import { askLineSocket, serveLineSocket } from '../config/line-socket';
import { type DeviceOps, runDevicesCommand } from './commands';

export function devicesSocketPath(stateDir: string): string {
  return join(stateDir, 'devices.sock');
}

const err = (code: 'bad_request' | 'bad_json' | 'internal', message: string): DevicesReply => ({ type: 'error', error: { code, message } });

export function serveDevicesSocket(stateDir: string, ops: DeviceOps): Promise<{ close(): Promise<void> }> {
  // A socket file left by a bridge that was killed answers nobody: it is removed. One that
  // answers belongs to a live bridge of this state dir, which the run-file check should have caught.
  return serveLineSocket(devicesSocketPath(stateDir), {
    name: 'devices socket',
    maxLine: 16 * 1024,
    command: DevicesCommand,
    run: (cmd) => runDevicesCommand(cmd, ops),
    error: err,
    refuseLive: true,
  });
}

/** Asks the running bridge; null when none listens on this state dir. */
export function askBridge(stateDir: string, cmd: DevicesCommand, timeoutMs = 5000): Promise<DevicesReply | null> {
  return askLineSocket(devicesSocketPath(stateDir), 'devices socket', cmd, DevicesReply, timeoutMs);
}
