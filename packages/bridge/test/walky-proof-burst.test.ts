/**
 * A bridge restarted under load is asked again by every waiting sender at once. Each proof of a
 * caller reads the kernel's table of unix sockets through `ss`; one process a proof took proofs
 * up to 10 s in the soak. A burst shares runs: each call joins the next run that starts after
 * its connection was accepted, so every connection is in the table it is proved by.
 */
import { createServer, connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '@collie/testkit';
import { findSs, peerOf, proveCaller, runSs, ssTable } from '../src/walky/peer';

describe('the walky proof in a burst', () => {
  it('proves 40 connections made at once, each by its own end, with one ss run at a time', async () => {
    const bin = await findSs();
    expect(bin, 'ss (iproute2) is needed to prove a walky caller').not.toBeNull();
    await using dir = await tempDir('collie-proof-burst');
    const path = join(dir.path, 'sock');
    let runs = 0;
    let under = 0;
    let most = 0;
    const table = ssTable(bin!, async (b) => {
      runs++;
      most = Math.max(most, ++under);
      try {
        return await runSs(b);
      } finally {
        under--;
      }
    });
    const proofs: Promise<unknown>[] = [];
    const server = createServer((conn) => proofs.push(proveCaller(process.pid, peerOf(conn, path, table), new Set())));
    await new Promise<void>((resolve) => server.listen(path, resolve));
    const clients: Socket[] = [];
    try {
      await Promise.all(
        Array.from({ length: 40 }, () => new Promise<void>((resolve, reject) => clients.push(connect(path).once('connect', resolve).once('error', reject)))),
      );
      while (proofs.length < 40) await new Promise((r) => setTimeout(r, 5));
      expect(await Promise.all(proofs)).toEqual(Array.from({ length: 40 }, () => ({ panePid: null })));
      // How many runs a burst takes depends on how fast ss is here (bench/walky-proof.mjs); never two at once.
      expect(most).toBe(1);
      expect(runs).toBeGreaterThanOrEqual(1);
    } finally {
      for (const c of clients) c.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
