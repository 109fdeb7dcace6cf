import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TRANSCRIPT_SUBSCRIPTIONS } from '@collie/protocol';
import { readSocketCommand } from './events-socket';

const agentId = fc.stringMatching(/^[0-9a-f]{12}$/).map((h) => `ag_${h}`);

describe('the event socket command', () => {
  it('reads a subscription of up to 8 agents, and says what is wrong with anything else', () => {
    expect(readSocketCommand('{"type":"subscribe_transcripts","agent_ids":[]}')).toEqual({ ok: true, agentIds: [] });
    expect(readSocketCommand('{"type":"subscribe_transcripts","agent_ids":["ag_0123456789ab"]}')).toEqual({ ok: true, agentIds: ['ag_0123456789ab'] });
    expect(readSocketCommand('nope')).toEqual({ ok: false, message: 'nerve: a socket command is JSON' });
    expect(readSocketCommand('{"type":"subscribe_transcripts","agent_ids":["ag_0123456789ab"],"more":1}')).toMatchObject({ ok: false });
    expect(readSocketCommand('{"type":"unsubscribe"}')).toMatchObject({ ok: false, message: expect.stringMatching(/^nerve: type: /) as unknown });
  });

  it('never throws; accepts exactly the well-formed subscriptions', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const r = readSocketCommand(text);
        if (!r.ok) expect(r.message).toMatch(/^nerve: /);
        else expect(r.agentIds.length).toBeLessThanOrEqual(MAX_TRANSCRIPT_SUBSCRIPTIONS);
      }),
    );
    fc.assert(
      fc.property(fc.array(agentId, { maxLength: 12 }), (ids) => {
        const r = readSocketCommand(JSON.stringify({ type: 'subscribe_transcripts', agent_ids: ids }));
        expect(r.ok).toBe(ids.length <= MAX_TRANSCRIPT_SUBSCRIPTIONS);
        if (r.ok) expect(r.agentIds).toEqual(ids);
      }),
    );
  });
});
