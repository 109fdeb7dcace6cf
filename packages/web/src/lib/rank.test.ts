import type { Pane, PaneState } from '@collie/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makePane } from '../../test/fixtures';
import { STATE_RANK, comparePanes, groupIntoSpaces } from './rank';

const ids = (panes: readonly Pane[]) => panes.map((pane) => pane.id);

describe('comparePanes', () => {
  it('ranks blocked, done, working, idle, unknown', () => {
    const states: PaneState[] = ['unknown', 'idle', 'working', 'done', 'blocked'];
    const panes = states.map((state, i) => makePane({ id: `s:%${i}`, state }));
    expect(panes.sort(comparePanes).map((pane) => pane.state)).toEqual(['blocked', 'done', 'working', 'idle', 'unknown']);
  });

  it('ranks a pane at its usage limit with the panes that need you, whatever its state says', () => {
    const limit = { state: 'reached' as const, resetsAt: '2026-01-01T15:00:00.000Z', source: 'screen' as const };
    const panes = [
      makePane({ id: 's:%1', state: 'working' }),
      makePane({ id: 's:%2', state: 'idle', usage: { limit, source: 'screen', at: 0 } }),
      makePane({ id: 's:%3', state: 'idle' }),
    ];
    expect(ids(panes.sort(comparePanes))).toEqual(['s:%2', 's:%1', 's:%3']);
    expect(groupIntoSpaces(panes, true).spaces.flatMap((s) => ids(s.panes))).toEqual(['s:%2']);
  });

  it('puts the pane waiting longest first among those that need you', () => {
    const panes = [
      makePane({ id: 's:%1', state: 'blocked', since: 300 }),
      makePane({ id: 's:%2', state: 'blocked', since: 100 }),
      makePane({ id: 's:%3', state: 'done', since: 50 }),
    ];
    expect(ids(panes.sort(comparePanes))).toEqual(['s:%2', 's:%1', 's:%3']);
  });

  it("keeps tmux's order for the others, however their times change", () => {
    const panes = [
      makePane({ id: 's:%1', state: 'working', windowIndex: 2, paneIndex: 0, since: 1 }),
      makePane({ id: 's:%2', state: 'working', windowIndex: 1, paneIndex: 1, since: 2 }),
      makePane({ id: 's:%3', state: 'working', windowIndex: 1, paneIndex: 0, since: 3 }),
    ];
    expect(ids(panes.sort(comparePanes))).toEqual(['s:%3', 's:%2', 's:%1']);
  });
});

describe('groupIntoSpaces', () => {
  it('groups by session and ranks spaces by their most urgent pane', () => {
    const { spaces, showOrigin, hidden } = groupIntoSpaces(
      [
        makePane({ id: 'd:%1', sessionName: 'alpha', state: 'idle' }),
        makePane({ id: 'd:%2', sessionName: 'zeta', state: 'blocked' }),
        makePane({ id: 'd:%3', sessionName: 'alpha', state: 'done' }),
        makePane({ id: 'd:%4', sessionName: 'mid', state: 'idle' }),
      ],
      false,
    );
    expect(spaces.map((space) => [space.name, ids(space.panes)])).toEqual([
      ['zeta', ['d:%2']],
      ['alpha', ['d:%3', 'd:%1']],
      ['mid', ['d:%4']],
    ]);
    expect(showOrigin).toBe(false);
    expect(hidden).toBe(0);
  });

  it('keeps same-named sessions of different servers apart and says where each runs', () => {
    const { spaces, showOrigin } = groupIntoSpaces(
      [makePane({ id: 'a:%1', server: 'default' }), makePane({ id: 'b:%1', server: 'work' })],
      false,
    );
    expect(spaces.map((space) => space.server)).toEqual(['default', 'work']);
    expect(showOrigin).toBe(true);
  });

  it('says where spaces run when panes come from more than one machine', () => {
    const { showOrigin } = groupIntoSpaces([makePane({ id: 'a:%1' }), makePane({ id: 'a:%2', machine: 'minibuch' })], false);
    expect(showOrigin).toBe(true);
  });

  it('keeps only blocked and done panes when asked, counting the rest', () => {
    const { spaces, hidden } = groupIntoSpaces(
      [
        makePane({ id: 'd:%1', sessionName: 'alpha', state: 'working' }),
        makePane({ id: 'd:%2', sessionName: 'beta', state: 'done' }),
        makePane({ id: 'd:%3', sessionName: 'beta', state: 'idle' }),
      ],
      true,
    );
    expect(spaces.map((space) => [space.name, ids(space.panes)])).toEqual([['beta', ['d:%2']]]);
    expect(hidden).toBe(2);
  });

  it('shows every pane exactly once, each space in rank order', () => {
    const state = fc.constantFrom<PaneState>('blocked', 'done', 'working', 'idle', 'unknown');
    const pane = fc.record({ session: fc.constantFrom('a', 'b', 'c'), state, since: fc.nat(1000), window: fc.nat(5) });
    fc.assert(
      fc.property(fc.array(pane, { maxLength: 25 }), fc.boolean(), (specs, needsYouOnly) => {
        const panes = specs.map((spec, i) =>
          makePane({ id: `d:%${i}`, sessionName: spec.session, state: spec.state, since: spec.since, windowIndex: spec.window }),
        );
        const { spaces, hidden } = groupIntoSpaces(panes, needsYouOnly);
        const shown = spaces.flatMap((space) => ids(space.panes));
        expect(new Set(shown).size).toBe(shown.length);
        expect(shown.length + hidden).toBe(panes.length);
        for (const space of spaces) {
          const ranks = space.panes.map((p) => STATE_RANK[p.state]);
          expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
        }
        const firsts = spaces.map((space) => STATE_RANK[space.panes[0]!.state]);
        expect(firsts).toEqual([...firsts].sort((x, y) => x - y));
      }),
    );
  });
});
