import { CREW_REASON, REFUSAL, versionBefore, wholeMachine, WALKY_CREW_SINCE, type Pane, type WalkyMessage, type WalkySkipped } from '@collie/protocol';
import type { Carried } from './crew-port';
import type { BroadcastHost } from './service-deps';

/**
 * Broadcasts: the operator's one message to every agent pane, here and on every machine of the
 * crew, under one id. Which panes a broadcast reaches, and the names it may be aimed at. Each
 * pane's message goes through the service's own send path.
 */
export class Broadcaster {
  constructor(private readonly s: BroadcastHost) {}

  /** Whether `machine` names this machine (`local`, its crew id or name, or its host name). */
  isHere(machine: string): boolean {
    const self = this.s.crewSelf();
    return machine === 'local' || machine === self?.prefix || machine === this.s.d.hub.machine || machine === self?.name;
  }

  /**
   * The panes a broadcast to `machine` (absent: every machine) reaches from here, each with the
   * refusal that holds for its whole machine now (an older member, one the lead cannot reach),
   * and the shell panes it skips. `except`: a member whose own panes its own bridge takes.
   */
  reach(machine: string | undefined, except?: string): { panes: { pane: Pane; member?: string; refused: string | null }[]; skipped: Pane[]; machines: { member: string; refused: string }[] } {
    const self = this.s.crewSelf();
    const port = this.s.crewPort();
    const pick = (p: Pane) => (p.member ? self?.role === 'lead' && p.member.name !== except && (machine === undefined || p.member.name === machine) : machine === undefined || this.isHere(machine));
    const panes = [...this.s.d.hub.panes.values()].filter(pick).sort((a, b) => this.s.shown(a.address).localeCompare(this.s.shown(b.address), 'en', { numeric: true }));
    const agents = panes
      .filter((p) => p.harness !== 'shell')
      .map((p) => {
        if (!p.member) return { pane: p, refused: null };
        const standing = port?.member(p.member.name);
        const refused = !standing ? REFUSAL.noPane : versionBefore(standing.version, WALKY_CREW_SINCE) ? REFUSAL.olderMember : !standing.reachable ? REFUSAL.unreachable : null;
        return { pane: p, member: p.member.name, refused };
      });
    // A member with no agent pane here (none reported yet, unreachable since this lead started, shells only) is not silence: one line for it.
    const named = new Set(agents.map((a) => a.member));
    const machines = (self?.role === 'lead' ? (port?.members() ?? []) : [])
      .filter((name) => name !== except && (machine === undefined || name === machine) && !named.has(name))
      .sort()
      .map((name) => ({ member: name, refused: port?.member(name)?.reachable ? REFUSAL.noAgents : REFUSAL.unreachable }));
    return { panes: agents, skipped: panes.filter((p) => p.harness === 'shell'), machines };
  }

  /**
   * The operator's message to every agent pane: this machine's, and every member's (`machine`:
   * a machine's name, or this machine's own panes; absent: all). On a lead each member gets one
   * post for all its panes, all members at once, 8 s each: one that takes longer reads "may have
   * arrived, will not be sent again (member slow)" until its next update; a member the lead
   * cannot reach, or an older one, is refused for all its panes (`<member>/all` in the status).
   * On a member the lead names the other machines' panes (`targets`), and each pane's message
   * goes through the lead as the member's own, signed. One receipt per target, each on one log
   * line with the broadcast's own id (`broadcast`), which `status` answers for every pane at
   * once; each receiving machine's record carries that id too.
   */
  async broadcast(device: string, raw: string, machine?: string): Promise<{ id: string; messages: WalkyMessage[]; skipped: WalkySkipped[] }> {
    const self = this.s.crewSelf();
    const id = this.s.d.newId();
    const port = this.s.crewPort();
    const { panes, skipped, machines } = this.reach(machine);
    const messages: WalkyMessage[] = [];
    for (const { pane: p } of panes.filter((x) => x.member === undefined)) {
      const m = await this.s.operatorSend(device, { address: p.address }, raw, undefined, id);
      if ('id' in m) messages.push(m);
    }
    const operator = { kind: 'operator' as const, device, ...(self ? { member: self.name } : {}) };
    const byMember = new Map<string, { pane: Pane; refused: string | null }[]>();
    for (const t of panes) if (t.member !== undefined) byMember.set(t.member, [...(byMember.get(t.member) ?? []), t]);
    const checked = this.s.checkBody(raw);
    await Promise.all(
      [...byMember].map(async ([member, targets]) => {
        const drafts = targets.map((t) => ({ ...this.s.draft(this.s.d.newId(), null, this.s.shown(t.pane.address), null), from: operator, to: this.s.target(t.pane, member), broadcast: id }));
        const refusal = 'refused' in checked ? checked.refused : (targets[0]?.refused ?? null);
        if (refusal !== null || 'refused' in checked) {
          for (const d of drafts) messages.push(await this.s.refused(d, refusal ?? REFUSAL.empty));
          return;
        }
        const accepted = [];
        for (const d of drafts) {
          const a = { ...d, body: checked.body, state: 'accepted' as const, reason: null };
          const unsaved = await this.s.saveFirst(a);
          if (unsaved) messages.push(unsaved);
          else accepted.push(a);
        }
        if (accepted.length === 0) return;
        const c = await port!.toMember(member, accepted.map((a) => ({ envelope: this.s.crewSend.envelope(a, checked.body, self!.name), pane: a.to.paneId.slice(member.length + 2) }))).catch((): Carried => ({ unknown: CREW_REASON.slow }));
        for (const a of accepted) {
          await this.s.crewSend.carried(a.id, c);
          messages.push(this.s.d.log.get(a.id) ?? a);
        }
      }),
    );
    // A member this lead shows no agent pane of: one refused line for the whole machine.
    const whole = (member: string) => ({ ...this.s.draft(this.s.d.newId(), null, `${member}/all`, null), from: operator, to: wholeMachine(member), broadcast: id });
    for (const w of machines) messages.push(await this.s.refused(whole(w.member), w.refused));
    // On a member: the other machines' panes, as the lead names them, each sent through the lead.
    // A lead that names none (older, unreachable) is one line: `<lead>/all` (or the machine asked).
    const elsewhere = self?.role === 'member' && port && (machine === undefined || !this.isHere(machine));
    const asked = !elsewhere ? null : versionBefore(self.leadVersion, WALKY_CREW_SINCE) ? { refused: REFUSAL.olderLead } : await port.targets(machine ?? 'all');
    if (asked && 'refused' in asked) messages.push(await this.s.refused(whole(machine ?? self!.lead), asked.refused));
    const far = asked && 'panes' in asked ? asked : null;
    if (far) {
      const sent = await Promise.all(
        far.panes.map(async (t) => {
          const draft: WalkyMessage = { ...this.s.draft(this.s.d.newId(), null, t.to.address, null), from: operator, to: { ...t.to, member: t.to.member ?? t.to.address.split('/')[0]! }, broadcast: id };
          if (t.refused !== null) return this.s.refused(draft, t.refused);
          return this.s.crewSend.viaLead(draft, raw, 0, true);
        }),
      );
      messages.push(...sent);
    }
    return { id, messages, skipped: [...skipped.map((p) => ({ address: this.s.shown(p.address), label: p.label })), ...(far?.skipped ?? [])] };
  }

  /** The names a broadcast's `member` may take here: all, this machine, and on a lead each member. */
  machines(): string[] {
    const self = this.s.crewSelf();
    const own = ['all', 'local', this.s.d.hub.machine, ...(self ? [self.prefix, self.name] : [])];
    return [...new Set([...own, ...(self?.role === 'lead' ? (this.s.d.crew?.()?.members() ?? []) : [])])];
  }
}
