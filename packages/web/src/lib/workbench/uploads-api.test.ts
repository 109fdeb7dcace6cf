import { describe, expect, it } from 'vitest';
import { splitUploads } from './uploads-api';

describe('splitUploads: an attachment named by its path shows as the file, never the path', () => {
  it("finds Claude Code's @path, a quoted path with spaces and a bare path", () => {
    expect(splitUploads('@/s/uploads/u_0123456789abcdef-shot.png what is this?')).toEqual([
      { kind: 'upload', id: 'u_0123456789abcdef', name: 'shot.png' },
      { kind: 'text', text: ' what is this?' },
    ]);
    expect(splitUploads('@"/home/me/my state/uploads/u_0123456789abcdef-a.pdf" and @/x/u_fedcba9876543210-b.webp')).toEqual([
      { kind: 'upload', id: 'u_0123456789abcdef', name: 'a.pdf' },
      { kind: 'text', text: ' and ' },
      { kind: 'upload', id: 'u_fedcba9876543210', name: 'b.webp' },
    ]);
    expect(splitUploads('look at /s/uploads/u_0123456789abcdef-log.txt')).toEqual([
      { kind: 'text', text: 'look at ' },
      { kind: 'upload', id: 'u_0123456789abcdef', name: 'log.txt' },
    ]);
  });
  it('leaves other text alone', () => {
    expect(splitUploads('u_0123 is no id; src/u_file.ts neither')).toEqual([{ kind: 'text', text: 'u_0123 is no id; src/u_file.ts neither' }]);
  });
});
