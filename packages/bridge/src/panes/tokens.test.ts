import { describe, expect, it } from 'vitest';
import { TOKEN_GRACE_MS, TokenStore } from './tokens';

describe('pane tokens', () => {
  it('a token follows its pane, and is forgotten 30 s after the pane is gone', () => {
    const s = new TokenStore({});
    const a = s.tokenFor('default:1:%1');
    expect(a).toMatch(/^[a-z2-9]{4}$/);
    expect(s.tokenFor('default:1:%1')).toBe(a);
    s.sweep(new Set(), 1000);
    expect(s.tokenFor('default:1:%1')).toBe(a); // back within the grace: same token
    s.sweep(new Set(), 2000);
    s.sweep(new Set(), 2000 + TOKEN_GRACE_MS);
    expect(s.takeChanges()).toEqual({});
  });

  it('live tokens are unique even when randomness repeats', () => {
    let i = 0;
    const seq = [0, 0, 0, 0, 0, 0, 0, 0, 0.5, 0.5, 0.5, 0.5];
    const s = new TokenStore({}, () => seq[i++ % seq.length]!);
    expect(s.tokenFor('a')).not.toBe(s.tokenFor('b'));
  });

  it('sweeps only the keys of the server it is told about', () => {
    const s = new TokenStore({ 'one:1:%1': { token: 'abcd', goneAt: null }, 'two:1:%1': { token: 'efgh', goneAt: null } });
    s.sweep(new Set(), 0, 'one:');
    expect(s.takeChanges()).toEqual({ 'one:1:%1': { token: 'abcd', goneAt: 0 }, 'two:1:%1': { token: 'efgh', goneAt: null } });
    expect(s.takeChanges()).toBeNull();
  });
});
