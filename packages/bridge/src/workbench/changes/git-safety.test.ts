import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { driverOverrides, gitEnv } from './git-safety';

const pairsOf = (env: Record<string, string>) =>
  Array.from({ length: Number(env['GIT_CONFIG_COUNT']) }, (_, i) => [env[`GIT_CONFIG_KEY_${i}`], env[`GIT_CONFIG_VALUE_${i}`]] as const);

describe('git-safety: every filter and diff driver a repository defines is emptied', () => {
  it('empties clean, smudge and process of each filter and textconv and command of each diff driver, whatever its name', () => {
    const name = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !/[\0\n]/.test(s));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('filter', 'diff'), name, fc.constantFrom('clean', 'smudge', 'process', 'required', 'textconv', 'command', 'binary'), fc.string())), (defs) => {
        const out = defs.map(([kind, n, v, value]) => `${kind}.${n}.${v}\n${value.replace(/\0/g, '')}`).join('\0') + '\0';
        const pairs = new Map(pairsOf(driverOverrides(out)));
        for (const [kind, n] of defs) {
          if (kind === 'filter') for (const v of ['clean', 'smudge', 'process']) expect(pairs.get(`filter.${n}.${v}`)).toBe('');
          else for (const v of ['textconv', 'command']) expect(pairs.get(`diff.${n}.${v}`)).toBe('');
        }
      }),
    );
  });

  it('reads a key without a value (a bare boolean) and nothing from an empty answer', () => {
    expect(pairsOf(driverOverrides('filter.lfs.required\0'))).toContainEqual(['filter.lfs.process', '']);
    expect(driverOverrides('')).toEqual({ GIT_CONFIG_COUNT: '0' });
  });

  it('drops every GIT_ variable the bridge inherited', () => {
    const env = gitEnv({ GIT_DIR: '/elsewhere', GIT_EXTERNAL_DIFF: 'x', GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='x'", HOME: '/h' });
    expect(env['GIT_DIR']).toBeUndefined();
    expect(env['GIT_EXTERNAL_DIFF']).toBeUndefined();
    expect(env['GIT_CONFIG_PARAMETERS']).toBeUndefined();
    expect(env['HOME']).toBe('/h');
  });
});
