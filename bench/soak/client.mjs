// The soak's phone-side writes: a send, a card answer, each with its request_id, retried with
// the same id while the bridge is down or restarting (as the app retries), until an answer.
/** How long a read of the bridge may take (the bridge answers one in milliseconds). */
const GET_MS = 30_000;

export function client(world, headers) {
  /** The bridge's URL while it is up; waits while it is down. */
  async function up() {
    for (;;) {
      if (world.bridge) return world.bridge.url;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  async function post(path, body, { until = () => true } = {}) {
    for (let tries = 0; ; tries++) {
      const url = await up();
      try {
        const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(60_000) });
        const json = await res.json().catch(() => ({}));
        // A pane not found just after a restart: the bridge is still listing its panes.
        if (res.status === 404 && Date.now() - (world.bridge?.startedAt ?? 0) < 5000 && tries < 200) {
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        const answer = { status: res.status, code: json.error?.code, ...json };
        if (until(answer) || tries > 600) return answer;
        await new Promise((r) => setTimeout(r, 200));
      } catch {
        // The bridge went down during the request: the same request again.
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
  /** A read of the bridge; one with no answer in GET_MS fails (its caller goes on) rather than waiting for good. */
  async function get(path) {
    const url = await up();
    const res = await fetch(`${url}${path}`, { headers, signal: AbortSignal.timeout(GET_MS) });
    return res.json();
  }
  const pane = (id) => `/api/panes/${encodeURIComponent(id)}`;
  return {
    up,
    send: (paneId, text, requestId, opts) => post(`${pane(paneId)}/send`, { text, request_id: requestId }, opts),
    answer: (paneId, signature, option, requestId, opts) => post(`${pane(paneId)}/answer`, { signature, option, request_id: requestId }, opts),
    /** A durable tap: `unsure` (the call may not have arrived) is tried again with the same id, as the app's "Try again". */
    durableAnswer: (body) => post('/api/durable/answer', body, { until: (a) => a.result !== undefined && a.result.outcome !== 'unsure' }),
    walkyStatus: (id) => get(`/api/walky/status?id=${encodeURIComponent(id)}`),
    walkyMessages: () => get('/api/walky/messages'),
    snapshot: () => get('/api/snapshot'),
  };
}
