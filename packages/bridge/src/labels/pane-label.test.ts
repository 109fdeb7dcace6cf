import { describe, expect, it } from 'vitest';
import { paneLabel } from './pane-label';

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
});
