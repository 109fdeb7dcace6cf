import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { devicesHref, fileHref, filesHref, newHref, paneHref, parseRoute, sessionHref, worktreesHref } from './routes';

describe('routes', () => {
  it('reads the dashboard from an empty or root hash', () => {
    expect(parseRoute('')).toEqual({ name: 'dashboard' });
    expect(parseRoute('#')).toEqual({ name: 'dashboard' });
    expect(parseRoute('#/')).toEqual({ name: 'dashboard' });
  });

  it('encodes pane ids with `:` and `%` and reads them back', () => {
    expect(paneHref('default:%7')).toBe('#/pane/default%3A%257');
    expect(parseRoute('#/pane/default%3A%257')).toEqual({ name: 'pane', id: 'default:%7' });
  });

  it('round-trips any session id, on this machine or on a crew machine', () => {
    fc.assert(
      fc.property(fc.constantFrom('claude', 'codex', 'gemini', 'opencode', 'pi'), fc.string({ minLength: 1, unit: 'grapheme' }), fc.option(fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,31}$/), { nil: null }), (agent, id, machine) => {
        expect(parseRoute(sessionHref(agent, id, machine))).toEqual({ name: 'session', agent, id, machine });
      }),
    );
    expect(sessionHref('pi', 'abc', 'alpha')).toBe('#/sessions/pi/abc/on/alpha');
  });

  it('round-trips any pane id', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: 'grapheme' }), (id) => {
        expect(parseRoute(paneHref(id))).toEqual({ name: 'pane', id });
      }),
    );
  });

  it('round-trips any pane id with any folder or file path (the files pages)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (id, path) => {
        expect(parseRoute(filesHref(id, path))).toEqual({ name: 'files', id, path });
        if (path !== '') expect(parseRoute(fileHref(id, path))).toEqual({ name: 'file', id, path });
      }),
    );
    expect(filesHref('s:%1', 'src/app')).toBe('#/pane/s%3A%251/files/src%2Fapp');
    expect(parseRoute(filesHref('s:%1'))).toEqual({ name: 'files', id: 's:%1', path: null });
    expect(parseRoute(filesHref('s:%1', ''))).toEqual({ name: 'files', id: 's:%1', path: '' });
    expect(parseRoute('#/pane/s%3A%251/file/')).toEqual({ name: 'not-found' });
    expect(parseRoute('#/pane/s%3A%251/files/a/b')).toEqual({ name: 'not-found' });
    expect(parseRoute(newHref())).toEqual({ name: 'new' });
    expect(parseRoute(worktreesHref())).toEqual({ name: 'worktrees' });
  });

  it('answers not-found for unknown paths and broken encodings', () => {
    expect(parseRoute('#/nowhere')).toEqual({ name: 'not-found' });
    expect(parseRoute('#/settings')).toEqual({ name: 'settings' });
    expect(parseRoute('#/pane/')).toEqual({ name: 'not-found' });
    expect(parseRoute('#/pane/%E0%A4%A')).toEqual({ name: 'not-found' });
  });

  it('knows the devices page and pairing links', () => {
    expect(parseRoute(devicesHref())).toEqual({ name: 'devices' });
    expect(parseRoute('#/pair')).toEqual({ name: 'pair', token: null });
    expect(parseRoute('#/pair/cp1_abc-_DEF')).toEqual({ name: 'pair', token: 'cp1_abc-_DEF' });
    expect(parseRoute('#/pair/not a token')).toEqual({ name: 'not-found' });
  });
});
