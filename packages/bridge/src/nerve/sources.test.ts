import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SOURCES, nerveName, parseNerveSources } from './sources';

describe('COLLIE_NERVE_API sources', () => {
  it('reads files (ending .json) and folders, in order, once each', () => {
    expect(parseNerveSources('/s/nerve/api.json')).toEqual({ ok: true, sources: [{ kind: 'file', path: '/s/nerve/api.json' }] });
    expect(parseNerveSources('/s/nerve/api.json:/srv/nerves/:/s/nerve/api.json')).toEqual({
      ok: true,
      sources: [
        { kind: 'file', path: '/s/nerve/api.json' },
        { kind: 'folder', path: '/srv/nerves' },
      ],
    });
  });

  it('says what is wrong with a bad list', () => {
    const message = (raw: string) => {
      const r = parseNerveSources(raw);
      return r.ok ? null : r.message;
    };
    expect(message('')).toBe('is empty');
    expect(message('/a/api.json::/b')).toBe("entry 2 is empty (two ':' in a row, or one at an end)");
    expect(message('/a/api.json:')).toBe("entry 2 is empty (two ':' in a row, or one at an end)");
    expect(message('nerve/api.json')).toBe('entry "nerve/api.json" is not an absolute path');
    expect(message('/a/../etc')).toBe('entry "/a/../etc" climbs with \'..\'');
    expect(message('/a\0b')).toBe('holds a NUL character');
    expect(message(Array.from({ length: MAX_SOURCES + 1 }, (_, i) => `/n${i}`).join(':'))).toBe(`names ${MAX_SOURCES + 1} places; at most ${MAX_SOURCES}`);
    expect(message(`/${'a'.repeat(5000)}`)).toBe('is longer than 4000 characters');
  });

  it('never throws; whatever it accepts is absolute, without .., and in the given order', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (raw) => {
        const r = parseNerveSources(raw);
        if (!r.ok) {
          expect(r.message.length).toBeGreaterThan(0);
          return;
        }
        for (const s of r.sources) {
          expect(s.path.startsWith('/')).toBe(true);
          expect(s.path.split('/')).not.toContain('..');
          expect(s.kind).toBe(s.path.endsWith('.json') ? 'file' : 'folder');
        }
      }),
    );
    const segment = fc.stringMatching(/^[a-z0-9_.-]{1,12}$/).filter((x) => x !== '..' && x !== '.');
    const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((p) => `/${p.join('/')}`);
    fc.assert(
      fc.property(fc.uniqueArray(path, { minLength: 1, maxLength: MAX_SOURCES }), (paths) => {
        const r = parseNerveSources(paths.join(':'));
        expect(r.ok && r.sources.map((s) => s.path)).toEqual(paths);
      }),
    );
  });

  it("names a Nerve by its api.json's folder", () => {
    expect(nerveName('/home/me/.local/state/collie/nerve/api.json')).toBe('nerve');
    expect(nerveName('/srv/nerves/work/api.json')).toBe('work');
  });
});
