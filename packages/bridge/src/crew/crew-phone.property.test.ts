import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CrewAskCommand, CrewAskReply, CrewDown, CrewInviteAnswer, CrewRemoveRequest, CrewUp, leadAgentName, splitAgentName } from '@collie/protocol';
import { LeadCalls } from './lead-calls';

const id = fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/);
const name = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,31}$/);
const json = fc.jsonValue({ maxDepth: 4 });

describe('the crew phone frames', () => {
  it('every parser answers any JSON without throwing', () => {
    fc.assert(
      fc.property(json, (v) => {
        for (const s of [CrewUp, CrewDown, CrewAskCommand, CrewAskReply, CrewInviteAnswer, CrewRemoveRequest]) expect(() => s.safeParse(v)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it('calls, watches and their answers round-trip through JSON; a wrong id or op is refused', () => {
    const call = fc.oneof(
      fc.record({ op: fc.constant('version' as const) }),
      fc.record({ op: fc.constant('cancel' as const), pane: fc.string({ minLength: 1, maxLength: 200 }), requestId: fc.stringMatching(/^[A-Za-z0-9_.:-]{1,100}$/) }),
      fc.record({ op: fc.constant('durable.read' as const), agent: fc.string({ minLength: 1, maxLength: 100 }), id: fc.string({ minLength: 1, maxLength: 200 }) }),
      fc.record({ op: fc.constant('chat.page' as const), pane: fc.string({ minLength: 1, maxLength: 200 }), before: fc.option(fc.nat(), { nil: null }), limit: fc.integer({ min: 1, max: 500 }) }),
    );
    fc.assert(
      fc.property(id, call, fc.string({ maxLength: 12 }), (i, c, junk) => {
        const frame = { type: 'call', id: i, call: c };
        expect(CrewDown.parse(JSON.parse(JSON.stringify(frame)))).toEqual(frame);
        expect(CrewDown.safeParse({ ...frame, id: `${i}!` }).success).toBe(false);
        expect(CrewDown.safeParse({ ...frame, call: { ...c, op: `x${junk}` } }).success).toBe(false);
        const result = { type: 'result', id: i, value: { any: junk }, error: null };
        expect(CrewUp.parse(JSON.parse(JSON.stringify(result)))).toEqual(result);
        expect(CrewUp.safeParse({ type: 'feed', id: i, frame: { type: 'pane.screen', id: junk } }).success).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it("a member's agent name on the lead splits back into member and name", () => {
    fc.assert(
      fc.property(name, fc.string({ minLength: 1, maxLength: 100 }), (m, n) => {
        expect(splitAgentName(leadAgentName(m, n))).toEqual({ member: m, name: n });
      }),
    );
    expect(splitAgentName('desk')).toBeNull();
    expect(splitAgentName('@Bad/desk')).toBeNull();
  });
});

describe('a call the lead makes, at the wire', () => {
  it('a member that never answers is member_unreachable after the wait; one not connected at once', async () => {
    const silent = new LeadCalls(() => true);
    await expect(silent.call('alpha', { op: 'version' }, 50)).rejects.toMatchObject({ code: 'member_unreachable' });
    const gone = new LeadCalls(() => false);
    await expect(gone.call('alpha', { op: 'version' })).rejects.toMatchObject({ code: 'member_unreachable', message: 'crew: alpha is not connected to the lead' });
    const dropped = new LeadCalls(() => true);
    const waiting = dropped.call('alpha', { op: 'version' });
    dropped.closed('alpha');
    await expect(waiting).rejects.toMatchObject({ code: 'member_unreachable' });
  });
});
