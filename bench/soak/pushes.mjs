// The soak's pushes: the testkit's stand-in push service on loopback (real HTTPS, VAPID checked,
// aes128gcm decrypted) with one device subscribed, and every push it took counted per ask. Each
// stand-in dialog is a question of its own (`dialog <n>`: its file is soak-ask-<n>.txt), so its
// push tag (docs/push.md: one tag per pane and card) names one ask. The product's contract: a
// question pushes once, across bridge restarts too (`<state>/push/pushed.json`); a reminder
// (kind `reminder`, same tag, ten minutes on) and a withdrawal are not second pushes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../lib.mjs';

/** Seconds a dialog must stay open before it pushes (the product's default is 30). */
const DELAY_S = 2;
/**
 * Seconds a device that had the app visible keeps pushes off (the product's default is 120).
 * The soak's Chromium page (browser-phone.mjs) reports itself visible every 30 s: with 5 s, about
 * a sixth of the asks come while it looks (no push, no withdrawal) and the rest push.
 */
const AWAY_S = 5;

export async function startPushes() {
  const kit = await import(pathToFileURL(join(root, 'packages/testkit/dist/bench-kit.mjs')).href);
  const service = await kit.startPushService();
  const dir = mkdtempSync(join(tmpdir(), 'collie-soak-push-'));
  const ca = join(dir, 'ca.pem');
  writeFileSync(ca, service.ca);
  let sub = null;
  return {
    /** What the bridge's process is given: the CA (bench/soak/bridge-main.mjs) and the delay. */
    env: { SOAK_PUSH_CA: ca, COLLIE_PUSH_DELAY: String(DELAY_S), COLLIE_PUSH_AWAY: String(AWAY_S) },
    /** One device's subscription, as the phone's Settings page posts it. */
    async subscribe(url, headers) {
      const s = service.subscribe();
      sub = Number(s.endpoint.split('/').pop());
      const res = await fetch(`${url}/api/push/subscribe`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ subscription: s }) });
      if (res.status !== 200) throw new Error(`push subscribe: HTTP ${res.status} ${await res.text()}`);
    },
    count: (asksMade, durableAsked, why = null) => countPushes(service.received.filter((p) => p.sub === sub), service.refused.length, asksMade, durableAsked, why),
    async close() {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * What the push service took from one subscription, counted per ask. `why` (optional):
 * `{ t0, lives, history }`, the soak's start, every bridge's life (pid, start, push lines) and
 * the phone's history of each pane, so an ask pushed twice says who sent each show, when the
 * bridge decided it (the payload's `at`: the same for a delivery tried again), its
 * withdrawals, and what the pane did around them.
 */
export function countPushes(received, refused, asksMade, durableAsked, why = null) {
  const shows = new Map();
  const kinds = {};
  const withdrawn = new Set();
  const withdrawnAt = new Map();
  let withdrawals = 0;
  for (const p of received) {
    const j = p.json ?? {};
    if (j.type === 'push.withdraw') {
      withdrawals++;
      withdrawn.add(j.tag);
      withdrawnAt.set(j.tag, [...(withdrawnAt.get(j.tag) ?? []), p.at]);
      continue;
    }
    if (j.type !== 'push.show') continue;
    kinds[j.kind] = (kinds[j.kind] ?? 0) + 1;
    // A pane's question, a finished turn, a durable agent's question: each once per tag.
    if (j.kind !== 'blocked' && j.kind !== 'finished' && j.kind !== 'durable') continue;
    const ask = /soak-ask-(\d+)/.exec(j.body ?? '')?.[1] ?? null;
    shows.set(j.tag, [...(shows.get(j.tag) ?? []), { ask, at: p.at, decided: typeof j.at === 'number' ? j.at : null, kind: j.kind, title: j.title, url: j.url }]);
  }
  const rel = (t) => (why ? Math.round((t - why.t0) / 100) / 10 : t);
  const explain = (tag, xs) => {
    if (!why) return { tag, shows: xs };
    const pidAt = (t) => why.lives.filter((l) => l.from <= t).at(-1) ?? null;
    const from = Math.min(...xs.map((x) => x.at)) - 30_000;
    const to = Math.max(...xs.map((x) => x.at)) + 5_000;
    const pane = decodeURIComponent(/^#\/pane\/(.+)$/.exec(xs[0].url ?? '')?.[1] ?? '');
    return {
      tag,
      pane,
      shows: xs.map((x) => ({ ask: x.ask, kind: x.kind, title: x.title, at: rel(x.at), decided: x.decided === null ? null : rel(x.decided), pid: pidAt(x.at)?.pid ?? null })),
      withdrawn: (withdrawnAt.get(tag) ?? []).map(rel),
      history: (why.history(pane) ?? []).filter((h) => h.at >= from && h.at <= to).map((h) => ({ ...h, at: rel(h.at) })),
      bridgeLines: [...new Set(xs.map((x) => pidAt(x.at)))].filter(Boolean).flatMap((l) => l.push.filter((e) => e.at >= from && e.at <= to).map((e) => `${rel(e.at)} ${l.pid} ${e.line}`)),
    };
  };
  const twice = [...shows].filter(([, xs]) => xs.length > 1).map(([tag, xs]) => explain(tag, xs));
  const asks = new Set([...shows.values()].flat().map((x) => x.ask).filter((a) => a !== null));
  return {
    asksMade,
    durableAsked,
    received: received.length,
    kinds,
    asksPushed: shows.size,
    asksNamed: asks.size,
    twice: twice.length,
    twiceAt: twice,
    withdrawals,
    pushedWithdrawn: [...shows.keys()].filter((t) => withdrawn.has(t)).length,
    // A withdrawal wakes the phone too: one for a push it never got is a push of nothing.
    withdrawnUnshown: [...withdrawn].filter((t) => !shows.has(t)),
    refused,
  };
}
