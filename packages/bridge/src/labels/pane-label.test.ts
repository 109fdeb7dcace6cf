import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { paneLabel, titleWords } from './pane-label';

const labeler = (answers: Record<string, string>) => async (cwd: string) => answers[cwd] ?? null;

describe('paneLabel', () => {
  it('prefers the git label', async () => {
    const label = labeler({ '/src/collie': 'collie#main' });
    await expect(paneLabel({ cwd: '/src/collie', title: 'ada-laptop' }, label)).resolves.toBe('collie#main');
  });

  it('falls back to the title, then the directory name', async () => {
    const label = labeler({});
    await expect(paneLabel({ cwd: '/srv/www', title: '  build logs ' }, label)).resolves.toBe('build logs');
    await expect(paneLabel({ cwd: '/srv/www', title: '   ' }, label)).resolves.toBe('www');
    await expect(paneLabel({ cwd: '/', title: '' }, label)).resolves.toBe('/');
    await expect(paneLabel({ cwd: '', title: '' }, label)).resolves.toBe('');
  });

  it('drops the state glyph an agent puts before its title, so the label does not change with the state', async () => {
    const label = labeler({});
    for (const title of ['✳ Claude Code', '⠂ Claude Code', '⠐ Claude Code', '  ✶  Claude Code ']) {
      await expect(paneLabel({ cwd: '/srv/www', title }, label)).resolves.toBe('Claude Code');
    }
    expect(titleWords('~/src')).toBe('~/src');
    expect(titleWords('✳')).toBe('✳');
    expect(titleWords('v1.2 build')).toBe('v1.2 build');
  });

  it('titleWords: never empty for a title with something in it, and never longer than the title', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (t) => {
        const w = titleWords(t);
        expect(w.length).toBeLessThanOrEqual(t.trim().length);
        if (t.trim() !== '') expect(w).not.toBe('');
        expect(t.includes(w)).toBe(true);
      }),
    );
  });
});
