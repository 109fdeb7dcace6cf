import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SourceName } from '@collie/protocol';
import { AcpCommandError, agentName } from './cli';
import { inside } from './files';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'collie-acp-inside-')));
mkdirSync(join(root, 'sub'));
const outside = realpathSync(mkdtempSync(join(tmpdir(), 'collie-acp-outside-')));
// A link inside the folder that points out of it: refused like the place it points to.
symlinkSync(outside, join(root, 'out-link'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const segment = fc.oneof(fc.constantFrom('..', '.', 'sub', 'out-link', 'new', ''), fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !s.includes('/') && !s.includes('\0')));

describe('paths the agent names, and the names a command gets', () => {
  it('a path is served only inside the session folder, after symlinks; anything else is refused in words', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), fc.boolean(), (parts, fromRoot) => {
        const base = fromRoot ? root : '/';
        const path = fromRoot ? join(root, ...parts) : resolve('/', ...parts);
        // Whether the path passes through the link out of the folder on its way.
        const through = parts.some((_p, i) => resolve(base, ...parts.slice(0, i + 1)) === join(root, 'out-link'));
        try {
          const p = inside(root, path);
          const rel = relative(root, p);
          expect(rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep))).toBe(true);
          expect(through && p.startsWith(outside)).toBe(false);
        } catch (err) {
          expect((err as Error).message).toMatch(/outside the session's folder|must be absolute/u);
          // Refused only when it is not in the folder (by its words, or by a link out of it).
          const rel = relative(root, resolve(path));
          expect(rel.startsWith('..') || rel.startsWith(sep) || through).toBe(true);
        }
      }),
    );
    for (const bad of ['notes.md', '', `${root}/a\0b`]) expect(() => inside(root, bad)).toThrow(/must be absolute/u);
    expect(() => inside(root, join(root, 'out-link', 'x'))).toThrow(/outside the session's folder/u);
    expect(inside(root, join(root, 'sub', '..', 'new.txt'))).toBe(join(root, 'new.txt'));
  });

  it('any command gets a valid agent name or a clear error naming --name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), fc.option(fc.string({ unit: 'binary', maxLength: 60 }), { nil: undefined }), (command, name) => {
        try {
          const n = agentName({ command: [command], name });
          expect(SourceName.safeParse(n).success).toBe(true);
          if (name !== undefined) expect(n).toBe(name);
        } catch (err) {
          expect(err).toBeInstanceOf(AcpCommandError);
          expect((err as Error).message).toMatch(/^collie: '.*': .+ \(give one with --name\)$/su);
        }
      }),
    );
    expect(agentName({ command: ['/opt/bin/codex-acp'] })).toBe('codex-acp');
    expect(() => agentName({ command: ['x'], name: '-bad' })).toThrow(/give one with --name/u);
  });
});
