import { execFileSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';

// The fast tier's rule (vitest.config.ts, project "fast"): a test beside the code starts no
// process and opens no socket. scripts/fast-guard.mjs makes each way to do so throw, here as in
// every other file under packages/*/src.
const refused = /in a fast-tier test: .* move it to its package's test\/ folder/;

describe('the fast tier', () => {
  it('refuses to start a process', () => {
    expect(() => spawn('true')).toThrow(refused);
    expect(() => execFileSync('true')).toThrow(refused);
  });

  it('refuses to listen, connect or bind a socket, and to fetch', () => {
    expect(() => createServer().listen(0, '127.0.0.1')).toThrow(refused);
    expect(() => connect(1, '127.0.0.1')).toThrow(refused);
    expect(() => createSocket('udp4').bind(0)).toThrow(refused);
    expect(() => fetch('http://127.0.0.1:1/')).toThrow(refused);
  });
});
