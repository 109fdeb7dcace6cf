import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CREW_WINDOW_MS, CrewWalkyAck, CrewWalkyDeliver, CrewWalkyOutcomes, CrewWalkyRead, CrewWalkyReceipts, CrewWalkySend, CrewWalkyTargets, CrewWalkyTargetsAsk, WalkyEnvelope, versionBefore, type CrewWalkyItem } from '@collie/protocol';
import { canonical, checkItem, envelopeText, leadText, signText } from './walky-sign';

const keys = () => generateKeyPairSync('ed25519');
const lead = keys();
const origin = keys();
const stranger = keys();
// A real certificate is not needed to check a key: the check takes the certificate's key. Here the
// origin's key travels as the "lead" for a lead-origin item, and the cert path is covered end to end.
const id = fc.stringMatching(/^wt_[a-z0-9]{12}$/);
const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/);
const NOW = 1_800_000_000_000;
const envelope = fc.record({
  v: fc.constant(1 as const),
  id,
  at: fc.integer({ min: NOW - CREW_WINDOW_MS, max: NOW + CREW_WINDOW_MS }),
  origin: name,
  from: fc.record({ kind: fc.constantFrom('agent' as const, 'operator' as const), address: fc.string({ maxLength: 40 }), member: name }),
  to: fc.string({ minLength: 1, maxLength: 60 }),
  replyTo: fc.option(id, { nil: null }),
  body: fc.string({ maxLength: 200 }),
});

/** An item the lead passes on for a message it is itself the origin of. */
function leadItem(e: WalkyEnvelope, me: string, pane: string): CrewWalkyItem {
  const sig = signText(envelopeText(e), lead.privateKey);
  return { envelope: e, sig, pane, lead_sig: signText(leadText(e, sig, undefined, me, pane), lead.privateKey) };
}

describe('walky signatures across a crew', () => {
  it("a lead-origin item checks as origin; any change to the message, the pane or the machine it is for fails as bad signature", () => {
    fc.assert(
      fc.property(envelope, name, fc.string({ minLength: 1, maxLength: 30 }), fc.constantFrom('body', 'to', 'at', 'pane', 'me', 'from'), (e0, me, pane, what) => {
        const e = { ...e0, origin: 'bluefin' };
        const item = leadItem(e, me, pane);
        expect(checkItem(item, me, { name: 'bluefin', key: lead.publicKey }, NOW)).toEqual({ ok: true, verified: 'origin' });
        const bent =
          what === 'body' ? { ...item, envelope: { ...e, body: `${e.body}x` } }
          : what === 'to' ? { ...item, envelope: { ...e, to: `${e.to}x` } }
          : what === 'at' ? { ...item, envelope: { ...e, at: e.at + 1 } }
          : what === 'from' ? { ...item, envelope: { ...e, from: { ...e.from, kind: e.from.kind === 'agent' ? ('operator' as const) : ('agent' as const) } } }
          : what === 'pane' ? { ...item, pane: `${pane}x` }
          : item;
        const who = what === 'me' ? `${me}x` : me;
        expect(checkItem(bent, who, { name: 'bluefin', key: lead.publicKey }, NOW)).toEqual({ ok: false, reason: 'bad signature' });
      }),
      { numRuns: 60 },
    );
  });

  it("another key's word is never the lead's; a message more than 10 minutes off is stale", () => {
    fc.assert(
      fc.property(envelope, name, fc.integer({ min: CREW_WINDOW_MS + 1, max: 5 * CREW_WINDOW_MS }), fc.boolean(), (e0, me, off, ahead) => {
        const e = { ...e0, origin: 'bluefin' };
        const item = leadItem(e, me, 'default:%1');
        expect(checkItem(item, me, { name: 'bluefin', key: stranger.publicKey }, NOW).ok).toBe(false);
        const late = leadItem({ ...e, at: NOW + (ahead ? off : -off) }, me, 'default:%1');
        expect(checkItem(late, me, { name: 'bluefin', key: lead.publicKey }, NOW)).toEqual({ ok: false, reason: 'stale' });
      }),
      { numRuns: 40 },
    );
  });

  it('a member-origin item without a certificate is taken on the lead\'s word (verified lead), with one that does not match it is refused', () => {
    fc.assert(
      fc.property(envelope, name, (e, me) => {
        const sig = signText(envelopeText(e), origin.privateKey);
        const item: CrewWalkyItem = { envelope: e, sig, pane: 'p', lead_sig: signText(leadText(e, sig, undefined, me, 'p'), lead.privateKey) };
        expect(checkItem(item, me, { name: `${e.origin}-lead`, key: lead.publicKey }, NOW)).toEqual({ ok: true, verified: 'lead' });
        const junkCert = 'A'.repeat(120);
        const withCert: CrewWalkyItem = { ...item, cert: junkCert, lead_sig: signText(leadText(e, sig, junkCert, me, 'p'), lead.privateKey) };
        // A certificate that does not parse gives no key: the lead's word alone.
        expect(checkItem(withCert, me, { name: `${e.origin}-lead`, key: lead.publicKey }, NOW)).toEqual({ ok: true, verified: 'lead' });
      }),
      { numRuns: 30 },
    );
  });

  it('canonical JSON ignores key order and absent fields', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null))), (o) => {
        const reversed = Object.fromEntries(Object.entries(o).reverse());
        expect(canonical(reversed)).toBe(canonical(o));
        expect(canonical({ ...o, zzz_absent: undefined })).toBe(canonical(o));
        expect(JSON.parse(canonical(o))).toEqual(o);
      }),
    );
  });

  it('the crew walky wire parsers answer anything with a result, never a throw, and keep what they accept', () => {
    const parsers = [CrewWalkyRead, CrewWalkySend, CrewWalkyDeliver, CrewWalkyOutcomes, CrewWalkyAck, CrewWalkyReceipts, CrewWalkyTargetsAsk, CrewWalkyTargets, WalkyEnvelope];
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.json().map((j) => JSON.parse(j) as unknown)), (v) => {
        for (const p of parsers) {
          const r = p.safeParse(v);
          if (r.success) expect(p.parse(r.data)).toEqual(r.data);
        }
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(envelope, (e) => {
        const sig = signText(envelopeText(e), origin.privateKey);
        expect(CrewWalkySend.parse({ envelope: e, sig })).toEqual({ envelope: e, sig });
        expect(CrewWalkySend.safeParse({ envelope: e, sig, extra: 1 }).success).toBe(false);
        expect(CrewWalkySend.safeParse({ envelope: { ...e, body: 'x'.repeat(4001) }, sig }).success).toBe(false);
      }),
      { numRuns: 50 },
    );
  });

  it("a broadcast's id is signed with the message when it travels, and an envelope without one hashes as before", () => {
    fc.assert(
      fc.property(envelope, name, id, id, (e, me, cast, other) => {
        fc.pre(cast !== other);
        const withId: WalkyEnvelope = { ...e, broadcast: cast };
        expect(WalkyEnvelope.parse(withId)).toEqual(withId);
        expect(envelopeText({ ...e, broadcast: undefined })).toBe(envelopeText(e));
        expect(envelopeText(withId)).not.toBe(envelopeText(e));
        const sig = signText(envelopeText(withId), origin.privateKey);
        const item: CrewWalkyItem = { envelope: withId, sig, pane: 'p', lead_sig: signText(leadText(withId, sig, undefined, me, 'p'), lead.privateKey) };
        expect(checkItem(item, me, { name: `${e.origin}-lead`, key: lead.publicKey }, NOW)).toEqual({ ok: true, verified: 'lead' });
        // Another broadcast's id, or none, breaks the lead's word.
        expect(checkItem({ ...item, envelope: { ...withId, broadcast: other } }, me, { name: `${e.origin}-lead`, key: lead.publicKey }, NOW)).toEqual({ ok: false, reason: 'bad signature' });
        expect(checkItem({ ...item, envelope: e }, me, { name: `${e.origin}-lead`, key: lead.publicKey }, NOW)).toEqual({ ok: false, reason: 'bad signature' });
        expect(WalkyEnvelope.safeParse({ ...e, broadcast: 'all' }).success).toBe(false);
      }),
      { numRuns: 40 },
    );
  });

  it("a broadcast's targets: the machine asked is all, a crew id or a crew name; anything else is refused", () => {
    fc.assert(
      fc.property(fc.oneof(name, fc.constant('all'), fc.stringMatching(/^collie-[a-z0-9]{6}$/), fc.string({ maxLength: 40 })), (machine) => {
        const ok = machine === 'all' || /^collie-[a-z0-9]{6}$/.test(machine) || (/^[a-z0-9][a-z0-9-]{0,31}$/.test(machine) && !machine.startsWith('collie-') && machine !== 'local');
        expect(CrewWalkyTargetsAsk.safeParse({ machine }).success).toBe(ok);
        expect(CrewWalkyTargetsAsk.safeParse({ machine, extra: 1 }).success).toBe(false);
      }),
      { numRuns: 200 },
    );
    const to = { paneId: '@beta/s:%1', pane: 'beta/s:%1', address: 'beta/s:%1#ab12', token: '#ab12', harness: 'claude', label: 'x', member: 'beta' };
    expect(CrewWalkyTargets.parse({ panes: [{ to, refused: null }], skipped: [] })).toEqual({ panes: [{ to, refused: null }], skipped: [] });
    expect(CrewWalkyTargets.safeParse({ panes: [{ to, refused: 5 }], skipped: [] }).success).toBe(false);
  });

  it('versionBefore compares numbers, and a version that is not one counts as new', () => {
    fc.assert(
      fc.property(fc.nat(30), fc.nat(30), fc.nat(30), fc.nat(30), fc.nat(30), fc.nat(30), (a, b, c, x, y, z) => {
        const lt = a !== x ? a < x : b !== y ? b < y : c < z;
        expect(versionBefore(`${a}.${b}.${c}`, `${x}.${y}.${z}`)).toBe(lt);
      }),
    );
    expect(versionBefore('test', '0.1.0')).toBe(false);
    expect(versionBefore('0.0.9', '0.1.0')).toBe(true);
    expect(versionBefore('0.1.0', '0.1.0')).toBe(false);
  });
});
