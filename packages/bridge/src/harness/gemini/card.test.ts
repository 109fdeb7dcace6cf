import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { answerPlan, readCard } from '../card';

const CAPTURES = new URL('./captures/', import.meta.url);
const screen = (name: string) => readFileSync(new URL(`${name}.txt`, CAPTURES), 'utf8');

describe('Gemini CLI cards', () => {
  it('the shell approval: the tool, its command, three options; a digit answers', () => {
    const card = readCard('gemini', screen('gemini--approval'))!;
    expect(card).toMatchObject({ kind: 'permission', title: 'Shell', body: ['rm -rf build'], question: 'Allow execution of [Shell]?', answerable: true });
    expect(card.options.map((o) => o.label)).toEqual(['Allow once', 'Allow for this session', 'No, suggest changes']);
    expect(answerPlan('gemini', card, { option: 1 })).toEqual({ ok: true, steps: ['1'] });
    expect(readCard('gemini', screen('gemini--approval-second'))?.signature).toBe(card.signature);
  });

  it('folder trust: the question and its three choices', () => {
    const card = readCard('gemini', screen('gemini--trust'))!;
    expect(card).toMatchObject({ kind: 'trust', question: 'Do you trust the files in this folder?' });
    expect(card.options.map((o) => o.label.replace(/\(.*\)/u, '').trim())).toEqual(['Trust folder', 'Trust parent folder', "Don't trust"]);
  });
});
