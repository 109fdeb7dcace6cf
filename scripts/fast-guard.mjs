// Setup file of the fast tier (vitest.config.ts, project "fast"): a test beside the code may not start a
// process or use a socket. Every way to do so throws here, naming what was tried, so a test
// that needs one fails at once with the way out instead of slowing the inner loop.
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);

function refuse(what) {
  throw new Error(`${what} in a fast-tier test: a test beside the code (packages/*/src) starts no process and opens no socket; move it to its package's test/ folder`);
}

const cp = require('node:child_process');
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  cp[name] = () => refuse(`child_process.${name}`);
}
const net = require('node:net');
net.Server.prototype.listen = () => refuse('listening on a socket');
net.Socket.prototype.connect = () => refuse('connecting a socket');
require('node:dgram').Socket.prototype.bind = () => refuse('binding a datagram socket');
globalThis.fetch = () => refuse('fetch');
syncBuiltinESMExports();
