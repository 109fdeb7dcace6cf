import { describe, expect, it } from 'vitest';
import { questionHeading, type DurableConversation, type DurablePush } from '@collie/protocol';
import { DurablePushes, type DurableShow } from './durable-pushes';
import { inQuiet } from './quiet';

const push = (over: Partial<DurablePush> = {}): DurablePush => ({
  kind: 'question',
  agent: 'desk',
  machine: 'm',
  conversationId: 'c1',
  questionId: 'q1',
  heading: questionHeading('Deploy'),
  title: 'Deploy to prod?',
  line: 'kubectl apply -f prod.yaml',
  at: 0,
  ...over,
});
const conversation = (questions: string[]): DurableConversation => ({ agent: 'desk', id: 'c1', questions: questions.map((id) => ({ id })) }) as unknown as DurableConversation;

describe('durable agents\' pushes', () => {
  it('shows the heading, the agent\'s own title and line, opens the conversation; withdrawn when the question leaves the open list', () => {
    const shown: DurableShow[] = [];
    const withdrawn: string[] = [];
    const d = new DurablePushes({ show: (s) => (shown.push(s), true), withdraw: (t) => withdrawn.push(t) });
    d.decided(push());
    expect(shown[0]).toMatchObject({ kind: 'durable', title: 'Permission needed in Deploy', body: 'Deploy to prod?\nkubectl apply -f prod.yaml', url: '#/durable/desk/c1' });
    d.conversation(conversation(['q1']));
    expect(withdrawn).toEqual([]);
    d.conversation(conversation([]));
    expect(withdrawn).toEqual([shown[0]!.tag]);
    d.conversation(conversation([]));
    expect(withdrawn).toHaveLength(1);
  });

  it('the flood push names the machine and withdraws nothing; a closed conversation or a removed agent withdraws its pushes', () => {
    const shown: DurableShow[] = [];
    const withdrawn: string[] = [];
    const d = new DurablePushes({ show: (s) => (shown.push(s), true), withdraw: (t) => withdrawn.push(t) });
    d.decided(push({ kind: 'flood', conversationId: null, questionId: null, heading: 'A durable agent on m is raising many asks' }));
    expect(shown[0]).toMatchObject({ kind: 'flood', title: 'A durable agent on m is raising many asks' });
    d.decided(push({ questionId: 'q2' }));
    d.decided(push({ conversationId: 'c2', questionId: 'q3' }));
    d.removed('desk', 'c1');
    expect(withdrawn).toEqual([shown[1]!.tag]);
    d.removed('desk', null);
    expect(withdrawn).toEqual([shown[1]!.tag, shown[2]!.tag]);
  });
});

describe('quiet hours', () => {
  const at = (h: number, m = 0) => new Date(2026, 11, 3, h, m);
  it('within a day, across midnight, and never when from equals to', () => {
    expect(inQuiet({ from: '09:00', to: '17:00' }, at(9))).toBe(true);
    expect(inQuiet({ from: '09:00', to: '17:00' }, at(17))).toBe(false);
    expect(inQuiet({ from: '22:00', to: '07:00' }, at(23, 30))).toBe(true);
    expect(inQuiet({ from: '22:00', to: '07:00' }, at(6, 59))).toBe(true);
    expect(inQuiet({ from: '22:00', to: '07:00' }, at(12))).toBe(false);
    expect(inQuiet({ from: '08:00', to: '08:00' }, at(8))).toBe(false);
    expect(inQuiet(null, at(8))).toBe(false);
  });
});
