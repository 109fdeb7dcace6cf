// The cost of the device check: `GET /api/snapshot` with a bearer token (checked, then served)
// and without one (refused with 401 by the same check), interleaved, against the built bridge
// with 50 live panes. Beside it, the check's own work measured alone in this process: one
// SHA-256 of the token and one Map lookup. Run after `npm run build`:
//   node bench/auth-cost.mjs [requests=2000]
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { quantile, settle, startAgents, startBridgeProcess } from './lib.mjs';

const N = Number(process.argv[2] ?? 2000);
const agents = startAgents({ panes: 50, sessions: 10 });
const bridge = await startBridgeProcess(agents);
try {
  await settle(bridge, 50);
  const url = `${bridge.url}/api/snapshot`;
  const time = async (headers, status) => {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 200; i++) await time(bridge.headers, 200); // warm-up
  const withToken = [];
  const without = [];
  for (let i = 0; i < N; i++) {
    withToken.push(await time(bridge.headers, 200));
    without.push(await time({}, 401));
  }
  // The check alone: what `authorize` adds to a served request.
  const token = `cd1_${randomBytes(32).toString('base64url')}`;
  const devices = new Map(Array.from({ length: 20 }, (_, i) => [createHash('sha256').update(`t${i}`).digest('hex'), { id: i }]));
  devices.set(createHash('sha256').update(token).digest('hex'), { id: 'me' });
  const check = [];
  for (let i = 0; i < 20_000; i++) {
    const t0 = performance.now();
    if (!devices.get(createHash('sha256').update(token).digest('hex'))) throw new Error('lookup');
    check.push(performance.now() - t0);
  }
  const f = (xs, q) => +quantile(xs, q).toFixed(3);
  const snapBytes = (await (await fetch(url, { headers: bridge.headers })).arrayBuffer()).byteLength;
  console.log(
    JSON.stringify(
      {
        requests: N,
        snapshotBytes: snapBytes,
        withBearer: { p50: f(withToken, 0.5), p99: f(withToken, 0.99) },
        withoutToken401: { p50: f(without, 0.5), p99: f(without, 0.99) },
        checkAloneMs: { p50: f(check, 0.5), p99: f(check, 0.99) },
      },
      null,
      2,
    ),
  );
} finally {
  bridge.stop();
  agents.stop();
}
