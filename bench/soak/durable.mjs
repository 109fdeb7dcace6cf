// The soak's durable agent: a real SDK agent (packages/durable-sdk) on a unix socket, attached
// with `collie durable add` as a user would, asking permission questions at random in three
// conversations (and now and then deciding one itself). The phone side answers what the bridge's
// snapshot shows through `POST /api/durable/answer`: sometimes a second phone answers the same
// question with its own request id, sometimes the same request is sent again; a request the
// bridge answers `unsure` (the bridge stopped mid-call) is tried again with the same id, as the
// app's "Try again". Bridge restarts land among them on the soak's schedule. Counted: answers
// the agent took once, twice (two requests both taken for one question), lost (a request the
// bridge said was taken that the agent never got), and results that disagree with the agent.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../lib.mjs';

export const AGENT = 'soak';
const CONVERSATIONS = 3;

export async function startDurable(dir) {
  const { DurableAgent, serve } = await import(pathToFileURL(join(root, 'packages/durable-sdk/dist/sdk.mjs')).href);
  /** Every `/answer` call that reached the agent, retries included: requestId → count. */
  const wire = new Map();
  class Counting extends DurableAgent {
    async call(path, body) {
      if (path !== '/answer') return super.call(path, body);
      wire.set(body.requestId, (wire.get(body.requestId) ?? 0) + 1);
      // An agent that takes a moment: a bridge kill -9 can land while the call is under way.
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 300)));
      return super.call(path, body);
    }
  }
  const agent = new Counting({ runtime: 'soak', onMessage: () => undefined });
  const on = await serve(agent, { socket: join(dir, 'durable.sock') });
  const convs = Array.from({ length: CONVERSATIONS }, (_, i) => agent.open({ title: `Soak ${i}` }));
  /** Every question asked: id → {ask, result}. */
  const asks = new Map();
  let n = 0;
  return {
    socket: on.address,
    wire,
    asks,
    /** One step of the agent: a new question (at most two open per conversation), or one decided itself. */
    step(r) {
      const open = [...asks.values()].filter((a) => !a.result);
      if (open.length && r.chance(0.08)) return void r.pick(open).ask.decide();
      const c = r.pick(convs);
      if (open.filter((a) => a.c === c).length >= 2) return;
      const id = `dq${n++}`;
      const ask = c.ask({ id, kind: 'permission', title: `Soak question ${id}?`, options: [{ id: 'y', action: 'allow', label: 'Yes' }, { id: 'n', action: 'deny', label: 'No' }] });
      const a = { id, c, ask, result: null, at: Date.now() };
      asks.set(id, a);
      void ask.then((res) => (a.result = res));
    },
    close: () => on.close(),
  };
}

/** The phone side: answers durable questions the bridge shows. */
export class DurableTaps {
  constructor({ api, r, seed }) {
    Object.assign(this, { api, r, seed });
    this.taps = [];
    this.n = 0;
    this.reuse = { same: 0, sameOk: 0, sameBad: [] };
  }
  async step() {
    const snap = await this.api.snapshot().catch(() => null);
    const qs = (snap?.durable?.conversations ?? []).filter((c) => c.agent === AGENT).flatMap((c) => c.questions.filter((q) => q.answerable).map((q) => ({ c, q })));
    if (!qs.length) return;
    const { c, q } = this.r.pick(qs);
    const body = { agent: AGENT, conversationId: c.id, questionId: q.id, version: q.version, answer: { kind: 'permission', option: this.r.pick(['y', 'n']) } };
    this.tap(body);
    // Another phone answers the same card at once, with its own request id.
    if (this.r.chance(0.25)) this.tap({ ...body, answer: { kind: 'permission', option: 'y' } });
  }
  tap(body) {
    const t = { requestId: `soak-${this.seed}-d${this.n++}`, questionId: body.questionId, at: Date.now() };
    this.taps.push(t);
    t.first = this.api.durableAnswer({ ...body, request_id: t.requestId }).then((a) => (t.answer = a));
    // The same request again after its result (a retry that did arrive twice): the same result, nothing run again.
    if (this.r.chance(0.15)) {
      t.again = t.first.then(async () => {
        this.reuse.same++;
        const b = await this.api.durableAnswer({ ...body, request_id: t.requestId });
        if (b.result?.outcome === t.answer.result?.outcome) this.reuse.sameOk++;
        else this.reuse.sameBad.push({ requestId: t.requestId, first: t.answer.result, again: b.result });
      });
    }
  }
  settle() {
    return Promise.all(this.taps.flatMap((t) => [t.first, t.again].filter(Boolean)));
  }
}

/** The table's figures: what the bridge said of each request against what the agent took. */
export function countDurable(agent, taps) {
  const byQ = new Map();
  for (const t of taps.taps) byQ.set(t.questionId, [...(byQ.get(t.questionId) ?? []), t]);
  const c = { asked: agent.asks.size, answered: 0, decided: 0, open: 0, taps: taps.taps.length, outcomes: {}, once: 0, twice: 0, lost: 0, disagree: 0, unfinal: 0, wireCalls: 0, bad: [] };
  for (const n of agent.wire.values()) c.wireCalls += n;
  for (const t of taps.taps) {
    const o = t.answer?.result?.outcome ?? `HTTP ${t.answer?.status} ${t.answer?.code ?? ''}`.trim();
    c.outcomes[o] = (c.outcomes[o] ?? 0) + 1;
    if (!t.answer?.result || o === 'unsure') c.unfinal++, c.bad.push({ kind: 'no final result', t: t.requestId, answer: t.answer });
  }
  for (const a of agent.asks.values()) {
    const res = a.result;
    if (!res) c.open++;
    else if (res.status === 'decided') c.decided++;
    const mine = byQ.get(a.id) ?? [];
    const taken = mine.filter((t) => t.answer?.result?.outcome === 'taken');
    if (taken.length > 1) c.twice++, c.bad.push({ kind: 'two requests taken', q: a.id, taken: taken.map((t) => t.requestId) });
    if (res?.status === 'answered') {
      c.answered++;
      const t = mine.find((x) => x.requestId === res.requestId);
      const said = t?.answer?.result?.outcome;
      if (said === 'taken' || said === 'may_be_applied') c.once++;
      else c.disagree++, c.bad.push({ kind: 'agent took it, the bridge said otherwise', q: a.id, requestId: res.requestId, said: t?.answer?.result ?? null });
    }
    for (const t of taken) if (res?.status !== 'answered' || res.requestId !== t.requestId) c.lost++, c.bad.push({ kind: 'taken, the agent never got it', q: a.id, requestId: t.requestId, result: res });
  }
  return { ...c, reuse: taps.reuse };
}
