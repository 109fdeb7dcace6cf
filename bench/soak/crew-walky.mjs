// Walky across the soak's crew (bench/soak/crew.mjs): a stand-in on one machine runs `collie
// walky send --json` to a stand-in on the other, both ways (bench/soak/walky.mjs's step, its
// route across machines; the body soak-w-c<n>). The lead's link is cut now and then meanwhile,
// and the lead is restarted on the soak's schedule. Counted per message from the sender's CLI
// answer, the sending machine's record, the receiving machine's record and the lines the target
// pane really received.
import { controlLine } from './actions.mjs';
import { cliAnswer, FINAL, saidId, Walky, walkyLines } from './walky.mjs';

/** A walky message some of which may be in the box (the bridge stopped while typing it): `unknown` for good (walky/delivery.ts). */
const TYPED_NOT_SUBMITTED = 'typed, not submitted';
import { MEMBER } from './crew.mjs';

export class CrewWalky extends Walky {
  constructor({ lead, crew, r, phones, leadApi }) {
    super({ world: lead, r, phones, control: controlLine });
    Object.assign(this, { lead, crew, leadApi });
  }
  route() {
    const alive = (w) => [...w.panes.values()].filter((p) => p.alive);
    const leadPanes = alive(this.lead);
    const memberPanes = alive(this.crew.member);
    if (!leadPanes.length || !memberPanes.length) return null;
    const shown = [...this.phones[0].panes.values()];
    if (this.r.chance(0.5)) {
      // Lead → member: the address the lead's phone shows for the member's pane.
      const from = this.r.pick(leadPanes);
      const to = this.r.pick(memberPanes);
      const address = shown.find((p) => p.member?.name === MEMBER && p.tmuxId === to.tmuxId)?.address;
      return address ? { from, to, address, tag: 'c', dir: 'lead→member' } : null;
    }
    // Member → lead: the lead's own address with the crew id for its machine part.
    const from = this.r.pick(memberPanes);
    const to = this.r.pick(leadPanes);
    const address = this.phones[0].panes.get(`${this.lead.name}:${to.tmuxId}`)?.address?.replace(/^local\//, `${this.crew.crewId}/`);
    return address ? { from, to, address, tag: 'c', dir: 'member→lead' } : null;
  }
  /** Both machines' records of each message, once every one is final on both (or the deadline). */
  async settle(_api, log) {
    const deadline = Date.now() + 180_000;
    const ends = (s) => (s.dir === 'lead→member' ? [this.leadApi, this.crew.api] : [this.crew.api, this.leadApi]);
    const answers = () => new Map([...walkyLines(this.lead.received()).answers, ...walkyLines(this.crew.member.received()).answers]);
    for (;;) {
      const a = answers();
      this.records = new Map();
      let open = 0;
      for (const s of this.sent) {
        // A CLI that failed names the id the bridge may have taken: looked up as well.
        const id = cliAnswer(a.get(`c${s.n}`))?.id ?? saidId(a.get(`c${s.n}`));
        if (!id) continue;
        const [sender, receiver] = await Promise.all(ends(s).map((api) => api.walkyStatus(id).then((x) => x?.message ?? null).catch(() => null)));
        this.records.set(s.n, { id, sender, receiver });
        // Final on the sender; on the receiver too when it was passed there (a message refused on the way has no record there).
        // `unknown` for the link (member slow, lead unreachable) is told later; typed and not submitted is the end of it.
        if (!sender || !FINAL.has(sender.state) || (sender.state === 'unknown' && sender.reason !== TYPED_NOT_SUBMITTED) || (receiver && !FINAL.has(receiver.state))) open++;
      }
      if (open === 0) return;
      if (Date.now() > deadline) return log(`soak: ${open} crew walky messages not final on both machines`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  async count() {
    const leadLines = walkyLines(this.lead.received());
    const memberLines = walkyLines(this.crew.member.received());
    const c = { asked: this.sent.length, sent: 0, once: 0, inbox: 0, refused: 0, unknown: 0, twice: 0, lost: 0, disagree: 0, noAnswer: 0, failedSaidSo: 0, failedTaken: 0, compared: 0, byDir: {}, reasons: {}, bad: [] };
    for (const s of this.sent) {
      const toLead = s.dir === 'member→lead';
      const a = (toLead ? memberLines : leadLines).answers.get(`c${s.n}`);
      const cli = cliAnswer(a);
      const rec = this.records?.get(s.n);
      if (!a) { c.noAnswer++; continue; }
      if (!rec?.sender) { c.failedSaidSo++; continue; }
      // The CLI failed and said the bridge may have taken it, and it had: counted as any message.
      if (!cli) c.failedTaken++;
      c.sent++;
      c.byDir[s.dir] = (c.byDir[s.dir] ?? 0) + 1;
      const got = (toLead ? leadLines : memberLines).typed.get(rec.id) ?? [];
      const { sender, receiver } = rec;
      // The receiving machine's word is the one that typed it; the sender's is what its agent reads.
      const state = receiver?.state ?? sender.state;
      if (receiver) c.compared++;
      if (got.length > 1) c.twice++, c.bad.push({ kind: 'typed twice', s, rec, got });
      if (got.some((t) => t !== s.to)) c.bad.push({ kind: 'typed into another pane', s, got });
      if (state === 'delivered' && got.length === 1) c.once++;
      else if (state === 'delivered' && got.length === 0) c.lost++, c.bad.push({ kind: 'delivered, the pane never got it', s, rec });
      else if (!FINAL.has(state) || !FINAL.has(sender.state)) c.lost++, c.bad.push({ kind: 'no final receipt', s, rec, cli });
      else if (state === 'inbox-only') c.inbox++;
      else if (state === 'refused') c.refused++, (c.reasons[receiver?.reason ?? sender.reason] = (c.reasons[receiver?.reason ?? sender.reason] ?? 0) + 1);
      else if (state === 'unknown') c.unknown++;
      if (got.length > 0 && state !== 'delivered' && state !== 'unknown') c.disagree++, c.bad.push({ kind: 'typed, receipt says otherwise', s, rec });
      // The sender and the receiving machine, both final and sure, must say the same.
      if (receiver && FINAL.has(receiver.state) && receiver.state !== 'unknown' && FINAL.has(sender.state) && sender.state !== 'unknown' && receiver.state !== sender.state) c.disagree++, c.bad.push({ kind: 'sender and receiver disagree', s, rec });
      if (sender.state === 'unknown' && receiver?.state === 'delivered') c.bad.push({ kind: 'sender still unknown, the receiver typed it', s, rec });
      if (cli && FINAL.has(cli.state) && cli.state !== 'unknown' && (cli.id !== sender.id || cli.state !== sender.state)) c.disagree++, c.bad.push({ kind: 'sender told otherwise', s, cli, rec });
    }
    c.senderUnknown = c.bad.filter((b) => b.kind === 'sender still unknown, the receiver typed it').length;
    return c;
  }
}
