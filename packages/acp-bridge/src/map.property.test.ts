import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as acp from '@agentclientprotocol/sdk';
import { KnownQuestion, LIMITS } from '@collie/protocol';
import { elicitationCard, elicitationResponse } from './elicit';
import { blockText, diffText, modelChoice, optionAction, permissionOutcome, permissionSpec, planProgress, toolContent, toolHead, toolStatus } from './map';

const kinds = fc.constantFrom('allow_once', 'allow_always', 'reject_once', 'reject_always');
const anyText = fc.string({ unit: 'binary', maxLength: 400 });
const bigText = fc.oneof(anyText, fc.nat({ max: 30_000 }).map((n) => 'x'.repeat(n)));
const block = fc.oneof(
  fc.record({ type: fc.constant('text' as const), text: bigText }),
  fc.record({ type: fc.constant('resource_link' as const), name: anyText, uri: anyText }),
  fc.record({ type: fc.constant('image' as const), data: anyText, mimeType: anyText }),
);
const content = fc.array(
  fc.oneof(
    block.map((c) => ({ type: 'content' as const, content: c })),
    fc.record({ type: fc.constant('diff' as const), path: anyText, oldText: fc.option(bigText), newText: bigText }),
    fc.record({ type: fc.constant('terminal' as const), terminalId: anyText }),
  ),
  { maxLength: 8 },
) as fc.Arbitrary<acp.ToolCallContent[]>;
const toolCall = fc.record({
  toolCallId: fc.string({ minLength: 1, maxLength: 600 }),
  title: fc.option(bigText),
  kind: fc.option(fc.constantFrom('read', 'edit', 'execute', 'other', 'nonsense')),
  rawInput: fc.option(fc.oneof(fc.record({ command: anyText }), fc.record({ command: fc.array(anyText) }), fc.jsonValue())),
  content: fc.option(content),
}) as fc.Arbitrary<acp.ToolCallUpdate>;
const request = fc.record({
  sessionId: fc.constant('s'),
  toolCall,
  options: fc.array(fc.record({ optionId: fc.string({ minLength: 1, maxLength: 500 }), name: anyText, kind: kinds }), { minLength: 1, maxLength: 12 }),
}) as fc.Arbitrary<acp.RequestPermissionRequest>;

describe('the ACP → durable wire mapping', () => {
  it('option kinds keep their meaning in Collie’s words; anything else is Cancel', () => {
    expect(['allow_once', 'allow_always', 'reject_once', 'reject_always'].map(optionAction)).toEqual(['allow', 'always', 'deny', 'deny']);
    fc.assert(fc.property(anyText, (k) => ['allow', 'always', 'deny', 'cancel'].includes(optionAction(k))));
    expect(['pending', 'in_progress', 'completed', 'failed', null].map(toolStatus)).toEqual(['running', 'running', 'done', 'failed', 'running']);
  });

  it('any permission request is a valid card within the limits, and each of its answers selects the agent’s own option', () => {
    fc.assert(
      fc.property(request, fc.nat({ max: 9 }), (req, pick) => {
        const { spec, optionIds } = permissionSpec(req, 'agent');
        const { expiresInMs: _e, check: _c, id: _i, ...rest } = spec;
        const q = KnownQuestion.parse({ ...rest, id: 'q', at: 0 });
        if (q.kind !== 'permission') return false;
        expect(q.options.length).toBe(Math.min(req.options.length, LIMITS.permissionOptions));
        expect(q.title.length).toBeLessThanOrEqual(LIMITS.questionTitle);
        expect(q.options.every((o) => o.label.length <= LIMITS.optionLabel)).toBe(true);
        expect(q.toolCall!.id.length).toBeLessThanOrEqual(LIMITS.id);
        const out = permissionOutcome({ kind: 'permission', option: `o${pick}` }, optionIds);
        if (pick < optionIds.length) expect(out).toEqual({ outcome: { outcome: 'selected', optionId: req.options[pick]!.optionId } });
        else expect(out).toEqual({ outcome: { outcome: 'cancelled' } });
        expect(permissionOutcome(null, optionIds)).toEqual({ outcome: { outcome: 'cancelled' } });
        return true;
      }),
    );
  });

  it('tool heads are one line within the limits; tool content is cut; a diff shows what changed', () => {
    fc.assert(
      fc.property(toolCall, (t) => {
        const h = toolHead(t);
        expect(h.name.length).toBeGreaterThan(0);
        expect(h.name.length).toBeLessThanOrEqual(LIMITS.toolName);
        expect(h.input.length).toBeLessThanOrEqual(LIMITS.toolInput);
        expect(h.input).not.toMatch(/[\n\r]/u);
        const c = toolContent(t.content);
        expect(c.text.length).toBeLessThanOrEqual(LIMITS.toolOutput);
        expect(c.diffs.every((d) => d.length <= LIMITS.itemText)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 20 }).map((s) => s.replace(/\n/gu, '')), { maxLength: 20 }), fc.array(fc.string({ maxLength: 20 }).map((s) => s.replace(/\n/gu, '')), { maxLength: 20 }), (a, b) => {
        const d = diffText({ path: 'f', oldText: a.join('\n'), newText: b.join('\n') }).split('\n');
        expect(d.slice(0, 2)).toEqual(['--- f', '+++ f']);
        // Old minus removed lines, plus added lines, gives the new text's lines.
        // The two head lines by place: a line of "++" added reads "+++" too.
        const removed = d.slice(2).filter((l) => l.startsWith('-')).map((l) => l.slice(1));
        const added = d.slice(2).filter((l) => l.startsWith('+')).map((l) => l.slice(1));
        const oldLines = a.join('\n') === '' ? [] : a.join('\n').split('\n');
        const newLines = b.join('\n') === '' ? [] : b.join('\n').split('\n');
        expect(oldLines.length - removed.length + added.length).toBe(newLines.length);
        // A newline both end with is no blank line of its own: the diff is the one without it.
        const [x, y] = [a.join('\n'), b.join('\n')];
        if (x !== '' && y !== '' && !x.endsWith('\n') && !y.endsWith('\n')) expect(diffText({ path: 'f', oldText: `${x}\n`, newText: `${y}\n` })).toBe(diffText({ path: 'f', oldText: x, newText: y }));
      }),
    );
  });

  it('plans are steps progress within the limits', () => {
    const entry = fc.record({ content: bigText, priority: fc.constantFrom('high', 'medium', 'low'), status: fc.constantFrom('pending', 'in_progress', 'completed') }) as fc.Arbitrary<acp.PlanEntry>;
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 120 }), (entries) => {
        const p = planProgress(entries);
        if (entries.length === 0) return p === null;
        if (p?.kind !== 'steps') return false;
        expect(p.steps.length).toBe(Math.min(entries.length, 50));
        expect(p.steps.every((s) => s.label.length > 0 && s.label.length <= 120)).toBe(true);
        return true;
      }),
    );
  });

  it('any elicitation schema is a valid form card or none, and any answer maps back to the schema’s own keys', () => {
    const prop = fc.oneof(
      fc.record({ type: fc.constant('string'), title: fc.option(anyText), maxLength: fc.option(fc.integer({ min: -5, max: 10_000 })) }),
      fc.record({ type: fc.constant('string'), enum: fc.array(anyText, { maxLength: 12 }) }),
      fc.record({ type: fc.constantFrom('number', 'integer', 'boolean', 'weird') }),
      fc.record({ type: fc.constant('array'), items: fc.record({ enum: fc.array(anyText, { maxLength: 12 }) }) }),
      fc.jsonValue(),
    );
    const req = fc.record({ mode: fc.constant('form'), message: anyText, requestedSchema: fc.record({ type: fc.constant('object'), properties: fc.dictionary(anyText, prop, { maxKeys: 10 }), required: fc.option(fc.array(anyText)) }) });
    const value = fc.oneof(anyText, fc.boolean(), fc.array(anyText, { maxLength: 3 }));
    fc.assert(
      fc.property(req, fc.dictionary(fc.constantFrom('f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f9'), value), (r, values) => {
        const card = elicitationCard(r as unknown as acp.CreateElicitationRequest);
        if (!card) return true;
        const { expiresInMs: _e, check: _c, id: _i, ...rest } = card.spec;
        const q = KnownQuestion.parse({ ...rest, id: 'q', at: 0 });
        expect(q.kind === 'form' && q.fields.length).toBeLessThanOrEqual(LIMITS.formFields);
        const res = elicitationResponse(card, { kind: 'form', values });
        const keys = new Set(card.fields.map((f) => f.key));
        expect(res.action).toBe('accept');
        const got = 'content' in res && res.content ? Object.keys(res.content) : [];
        expect(got.every((k) => keys.has(k))).toBe(true);
        for (const f of card.fields) {
          const v = 'content' in res && res.content ? (res.content as Record<string, unknown>)[f.key] : undefined;
          if (v !== undefined && (f.type === 'number' || f.type === 'integer')) expect(typeof v).toBe('number');
          if (v !== undefined && f.type === 'boolean') expect(typeof v).toBe('boolean');
          // A choice is sent only when something was picked: never "" (none of the schema's values).
          if (v !== undefined && f.type === 'choice') expect(typeof v === 'string' && v.length > 0).toBe(true);
        }
        return true;
      }),
    );
  });

  it('form keys named like Object members (`valueOf`, `__proto__`) are the agent\'s own keys: nothing inherited, nothing on a prototype', () => {
    const r = { mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: JSON.parse('{"valueOf":{"type":"number"},"__proto__":{"type":"string"},"toString":{"type":"boolean"}}') as Record<string, unknown> } };
    const card = elicitationCard(r as unknown as acp.CreateElicitationRequest)!;
    expect(card.fields.map((f) => f.key)).toEqual(['valueOf', '__proto__', 'toString']);
    const empty = elicitationResponse(card, { kind: 'form', values: {} });
    expect('content' in empty && empty.content ? Object.keys(empty.content) : null).toEqual([]);
    expect('content' in empty && empty.content ? (empty.content as Record<string, unknown>).valueOf : 'none').toBeUndefined();
    const full = elicitationResponse(card, { kind: 'form', values: { f0: '3', f1: 'x', f2: true } });
    expect(JSON.parse(JSON.stringify('content' in full ? full.content : null))).toEqual(JSON.parse('{"valueOf":3,"__proto__":"x","toString":true}'));
  });

  it('the model choice is the first select of category model, its values flattened out of groups, or none; junk never throws', () => {
    const choice = fc.record({ value: fc.string({ maxLength: 40 }), name: anyText, description: fc.option(anyText) });
    const selectOptions = fc.oneof(fc.array(choice, { maxLength: 30 }), fc.array(fc.record({ group: anyText, name: anyText, options: fc.array(choice, { maxLength: 12 }) }), { maxLength: 5 }));
    const option = fc.oneof(
      fc.record({ id: fc.string({ minLength: 1, maxLength: 40 }), name: anyText, type: fc.constant('select'), category: fc.option(fc.constantFrom('model', 'mode', 'thought_level', '_other')), currentValue: fc.string({ maxLength: 40 }), options: selectOptions }),
      fc.record({ id: fc.string({ minLength: 1, maxLength: 40 }), name: anyText, type: fc.constant('boolean'), category: fc.option(fc.constantFrom('model', 'mode')), currentValue: fc.boolean() }),
    ) as fc.Arbitrary<acp.SessionConfigOption>;
    fc.assert(
      fc.property(fc.option(fc.array(option, { maxLength: 6 })), (config) => {
        const m = modelChoice(config);
        const first = (config ?? []).find((c) => c.category === 'model' && c.type === 'select');
        const flat = first?.type === 'select' ? first.options.flatMap((x) => ('group' in x ? x.options : [x])) : [];
        if (flat.length < 2) return m === null;
        if (!m || first?.type !== 'select') return false;
        expect(m.configId).toBe(first.id);
        expect(m.current).toBe(first.currentValue);
        // In the agent's order, at most 20, each the agent's own value and name.
        expect(m.options).toEqual(flat.slice(0, 20).map((x) => ({ value: x.value, name: x.name })));
        return true;
      }),
    );
    // What a hostile agent might send past the schema: no throw, and a choice only of strings.
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.anything(), fc.record({ category: fc.constant('model'), type: fc.constant('select'), id: anyText, currentValue: fc.anything(), options: fc.anything() })), { maxLength: 5 }), (junk) => {
        const m = modelChoice(junk as acp.SessionConfigOption[]);
        if (m) expect(m.options.every((o) => typeof o.value === 'string' && typeof o.name === 'string')).toBe(true);
      }),
    );
  });

  it('any content block is text: its own, a link by name, media as a word', () => {
    const anyBlock = fc.oneof(
      fc.record({ type: fc.constant('text'), text: anyText }),
      fc.record({ type: fc.constant('resource_link'), name: anyText, uri: anyText, title: fc.option(anyText) }),
      fc.record({ type: fc.constant('resource'), resource: fc.oneof(fc.record({ uri: anyText, text: anyText }), fc.record({ uri: anyText, blob: anyText })) }),
      fc.record({ type: fc.constantFrom('image', 'audio'), data: anyText, mimeType: anyText }),
      fc.record({ type: anyText }),
    ) as fc.Arbitrary<acp.ContentBlock>;
    fc.assert(
      fc.property(anyBlock, (b) => {
        const t = blockText(b);
        expect(typeof t).toBe('string');
        if (b.type === 'text') expect(t).toBe(b.text);
        if (b.type === 'image') expect(t).toBe('[image]');
        if (b.type === 'resource_link') expect(t).toContain(b.uri);
      }),
    );
  });
});
