import { describe, expect, it } from 'vitest';
import type { Pane } from '@collie/protocol';
import { makeRedactor } from '../redact';
import { maskPane, maskReceipt } from './mask-up';

const secret = 'sk-ant-api03-' + 'A1b2C3d4E5f6G7h8I9j0'.repeat(4);
const pane: Pane = {
  id: 'default:%1', address: 'local/%1#ab12', token: 'ab12', server: 'default', tmuxId: '%1', machine: 'm', sessionId: '$1', sessionName: 's', windowId: '@1', windowIndex: 0, windowName: 'w', paneIndex: 0, active: true,
  cwd: '/tmp', title: `export KEY=${secret}`, command: 'claude', pid: 1, width: 80, height: 24, harness: 'claude', label: 'repo#main', state: 'blocked', since: 0, dialog: 'permission', draft: `ANTHROPIC_API_KEY=${secret}`,
  card: { kind: 'permission', signature: 'sig-1', title: 'Bash command', body: [`curl -H "x-api-key: ${secret}"`], question: 'Do you want to proceed?', options: [{ n: 1, label: 'Yes', description: null, checked: null, freeText: false }], tabs: [], activeTab: null, answerable: true },
};

describe('masking what a member sends up', () => {
  it('masks titles, drafts and card text on the lead, and keeps ids and the card signature', () => {
    const up = maskPane(pane, makeRedactor(true));
    expect(JSON.stringify(up)).not.toContain(secret);
    expect(up.card?.signature).toBe('sig-1');
    expect([up.id, up.address, up.token]).toEqual([pane.id, pane.address, pane.token]);
    expect(maskPane(pane, makeRedactor(false))).toEqual(pane);
    const r = maskReceipt({ requestId: 'r', paneId: 'p', kind: 'text', summary: `token ${secret}`, state: 'typed', outcome: 'typed into the pane', final: true, createdAt: 0, updatedAt: 0 }, makeRedactor(true));
    expect(r.summary).not.toContain(secret);
  });
});
