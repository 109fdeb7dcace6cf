import { describe, expect, it } from 'vitest';
import { makeCard } from '../../test/fixtures';
import { FREE_TEXT_HINT, MENU_NOTE, cardView, shownChecks, togglesFor } from './card-view';

const option = (n: number, label: string, checked: boolean | null, freeText = false) => ({
  n,
  label,
  description: `${label} description`,
  checked,
  freeText,
});

describe('cardView', () => {
  it('makes each answer a tap, and the free-text answer shown but not tappable', () => {
    const view = cardView(makeCard());
    expect(view.multi).toBe(false);
    expect(view.readOnly).toBe(false);
    expect(view.options.map((o) => `${o.n} ${o.as} ${o.hint ?? '-'}`)).toEqual(['1 pick -', '2 pick -', '3 text -']);
    expect(view.body).toEqual(['touch made-by-bash', 'Run the scripted command']);
  });

  it('shows a menu the person opened read-only, with where to answer it', () => {
    const view = cardView(makeCard({ kind: 'menu', answerable: false, title: 'Select model' }));
    expect(view.readOnly).toBe(true);
    expect(view.note).toBe(MENU_NOTE);
    expect(view.note).toBe('A menu you opened — answer it on the keys pad or in the terminal.');
    expect(view.options.every((o) => o.as === 'shown')).toBe(true);
  });

  it('turns a multi-select into checkboxes, leaving its free-text box out', () => {
    const view = cardView(
      makeCard({
        kind: 'multiselect',
        options: [option(1, 'Cheese', false), option(2, 'Mushrooms', true), option(3, 'Olives', true), option(4, 'Type something', false, true), option(5, 'Chat about this', null)],
      }),
    );
    expect(view.multi).toBe(true);
    expect(view.options.map((o) => o.as)).toEqual(['check', 'check', 'check', 'shown', 'pick']);
    expect([...shownChecks(view, new Map())]).toEqual([2, 3]);
    expect([...shownChecks(view, new Map([[1, true], [2, false], [4, true]]))]).toEqual([1, 3]);
  });

  it('toggles only the boxes whose wanted state differs from the screen', () => {
    const view = cardView(
      makeCard({ kind: 'multiselect', options: [option(1, 'A', false), option(2, 'B', true), option(3, 'C', true), option(4, 'Other', true, true)] }),
    );
    expect(togglesFor(view, new Set([1, 2]))).toEqual([1, 3]);
    expect(togglesFor(view, shownChecks(view, new Map()))).toEqual([]);
    // A box ticked in the terminal since is not toggled back unless the person changed it.
    const later = cardView(makeCard({ kind: 'multiselect', options: [option(1, 'A', true), option(2, 'B', true), option(3, 'C', true)] }));
    expect(togglesFor(later, shownChecks(later, new Map([[2, false]])))).toEqual([2]);
    // The free-text box is never toggled from the phone, whatever is asked.
    expect(togglesFor(view, new Set([4]))).toEqual([2, 3]);
  });

  it('shows a wizard as steps with the active one, and its review as buttons', () => {
    const tabs = [
      { label: 'Focus area', answered: true },
      { label: 'Scope', answered: true },
      { label: 'Submit', answered: false },
    ];
    const review = cardView(
      makeCard({ kind: 'review', tabs, activeTab: 2, question: 'Ready to submit your answers?', options: [option(1, 'Submit answers', null), option(2, 'Cancel', null)] }),
    );
    expect(review.steps).toEqual([
      { label: 'Focus area', answered: true, active: false },
      { label: 'Scope', answered: true, active: false },
      { label: 'Submit', answered: false, active: true },
    ]);
    expect(review.options.map((o) => o.as)).toEqual(['pick', 'pick']);
    expect(cardView(makeCard({ kind: 'wizard', tabs, activeTab: 1, title: 'Scope' })).title).toBe('');
    expect(cardView(makeCard({ kind: 'wizard', tabs, activeTab: 1, title: 'Pick a scope' })).title).toBe('Pick a scope');
    expect(cardView(makeCard()).steps).toEqual([]);
  });
});
