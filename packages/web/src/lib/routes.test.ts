import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { devicesHref, paneHref, parseRoute } from './routes';

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

  it('round-trips any pane id', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: 'grapheme' }), (id) => {
        expect(parseRoute(paneHref(id))).toEqual({ name: 'pane', id });
      }),
    );
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
