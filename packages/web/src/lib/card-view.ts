import { type CardOption, type DialogCard, type Reach, optionReach } from '@collie/protocol';

/** Why an option cannot be tapped, in words shown under it. */
export const FREE_TEXT_HINT = 'answer this one in the terminal for now';
/** The placeholder of an option's words field. */
export const WORDS_PLACEHOLDER = 'Type your answer';
/** What a read-only card (a menu the person opened in the pane) says instead of buttons. */
export const MENU_NOTE = 'A menu you opened — answer it on the keys pad or in the terminal.';

/**
 * How an option shows: `pick` sends it with one tap, `check` is a checkbox sent with Submit,
 * `text` is a field whose words are sent with it, `shown` is drawn for context but cannot be
 * tapped (`hint` says why, when there is a why). `words`: a `pick` that may also carry words
 * (the label it takes then), else null.
 */
export interface OptionView {
  readonly n: number;
  readonly label: string;
  readonly description: string | null;
  readonly as: 'pick' | 'check' | 'text' | 'shown';
  readonly words: string | null;
  /** Ticked on screen now (checkboxes only). */
  readonly checked: boolean;
  readonly hint: string | null;
  /** Primary, wider (a second tap confirms it) or plain; see `optionReach`. */
  readonly reach: Reach;
}

export interface StepView {
  readonly label: string;
  readonly answered: boolean;
  readonly active: boolean;
}

export interface CardView {
  readonly title: string;
  readonly body: readonly string[];
  readonly question: string;
  readonly options: readonly OptionView[];
  /** Wizard tabs, or empty when the ask has one page. */
  readonly steps: readonly StepView[];
  /** The card has checkboxes: they are sent together by one Submit. */
  readonly multi: boolean;
  /** Nothing on the card can be tapped; `note` says where to answer instead. */
  readonly readOnly: boolean;
  readonly note: string | null;
}

/** The card as the phone draws it, and which of its options a tap may send. Pure. */
export function cardView(card: DialogCard): CardView {
  const readOnly = !card.answerable;
  const multi = !readOnly && (card.kind === 'multiselect' || card.options.some((o) => o.checked !== null));
  const activeLabel = card.activeTab === null ? null : (card.tabs[card.activeTab]?.label ?? null);
  return {
    // A wizard's heading is its active tab's label, which the stepper already shows.
    title: card.title === activeLabel ? '' : card.title,
    body: card.body,
    question: card.question,
    options: card.options.map((option) => optionView(card, option, readOnly, multi)),
    steps: card.tabs.map((tab, i) => ({ label: tab.label, answered: tab.answered, active: i === card.activeTab })),
    multi,
    readOnly,
    note: readOnly ? MENU_NOTE : null,
  };
}

function optionView(card: DialogCard, option: CardOption, readOnly: boolean, multi: boolean): OptionView {
  const reach = readOnly || option.checked !== null ? 'plain' : optionReach(card, option);
  const base = { n: option.n, label: option.label, description: option.description, checked: option.checked === true, reach, words: null };
  // A multi-select's own text row is typed among ticks: that is left to the terminal.
  if (option.freeText) return readOnly || multi ? { ...base, as: 'shown', hint: FREE_TEXT_HINT } : { ...base, as: 'text', hint: null };
  if (readOnly) return { ...base, as: 'shown', hint: null };
  return { ...base, as: option.checked === null ? 'pick' : 'check', hint: null, words: option.checked === null ? (option.amend ?? null) : null };
}

/**
 * The boxes as the person sees them: the screen's ticks, with the ones they changed on the
 * phone since. Boxes they did not touch follow the screen (ticked in the terminal, say).
 */
export function shownChecks(view: CardView, changed: ReadonlyMap<number, boolean>): Set<number> {
  return new Set(view.options.filter((o) => o.as === 'check' && (changed.get(o.n) ?? o.checked)).map((o) => o.n));
}

/**
 * The options to toggle so the dialog's checkboxes end up as `wanted`: those whose wanted
 * state differs from what the screen shows, in the dialog's order.
 */
export function togglesFor(view: CardView, wanted: ReadonlySet<number>): number[] {
  return view.options.filter((o) => o.as === 'check' && wanted.has(o.n) !== o.checked).map((o) => o.n);
}
