import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScreen } from '../screen/parse-screen';
import { answerPlan, readCard } from '../card';
import { readOmp } from './index';

const FIXTURES = new URL('../../../../testkit/corpus/panes/', import.meta.url);
const E = '\u001b';
const dim = (s: string): string => `${E}[2m${s}${E}[0m`;
const W = 60;
const TOP = `╭── π > ⬢ Auto > ⑂ master ▶${'─'.repeat(W - 28)}╮`;
const bottom = (text: string) => `╰─ ${text}${' '.repeat(Math.max(0, W - 6 - text.length))} ─╯`;
const side = (text: string) => `│ ${text}${' '.repeat(Math.max(0, W - 4 - text.length))} │`;
const read = (rows: string[]) => readOmp(parseScreen(rows.join('\r\n')));

describe('oh-my-pi composer', () => {
  it('is idle and empty when the bottom edge holds no text', () => {
    expect(read([' ✔ New session started', '', TOP, bottom('')])).toEqual({
      harness: 'omp',
      state: 'idle',
      dialog: null,
      draft: null,
    });
  });

  it('reads text on the bottom edge and on side rows above it', () => {
    expect(read([TOP, side('first row'), bottom('second row')]).draft).toBe('first row\nsecond row');
  });

  it('does not count faint placeholder text as a draft', () => {
    expect(read([TOP, bottom(dim('Ask anything'))]).draft).toBeNull();
  });

  it('is working while the spinner row shows', () => {
    expect(read([' ⠏ Working… ⟦esc⟧', '', TOP, bottom('')]).state).toBe('working');
  });

  it('is unknown with no composer and nothing else it knows', () => {
    expect(read(['some output', 'more output']).state).toBe('unknown');
  });
});

describe('oh-my-pi ask dialog', () => {
  const ask = (...body: string[]) => [
    '╭─ Ask ' + '─'.repeat(40) + '╮',
    ...body.map((r) => `│ ${r} │`),
    '╰' + '─'.repeat(47) + '╯',
  ];
  const SELECT_HINT = 'Enter select · n note · ↑/↓ move · Esc cancel';

  it('reads radio options as select and checkboxes as multiselect', () => {
    expect(read(ask('Pick a color', '❯ ○ Red', '  ○ Blue', SELECT_HINT))).toMatchObject({
      state: 'blocked',
      dialog: 'select',
    });
    const multi = ask('toppings    Submit', 'Pick toppings', '❯ ☐ Cheese', 'Space/Enter toggle · n note · Esc cancel');
    expect(read(multi).dialog).toBe('multiselect');
  });

  it('reads two question tabs as a wizard and the Submit page as review', () => {
    expect(read(ask('size    crust    Submit', 'Pick a size', '❯ ○ Small', SELECT_HINT)).dialog).toBe('wizard');
    const review = ask('toppings   Submit', 'Review answers', '❯ Submit', 'Enter submit · ↑/↓ scroll · Esc cancel');
    expect(read(review).dialog).toBe('review');
  });

  it('ignores the ask tool call printed in the transcript', () => {
    const history = ['╭─── Ask 1 questions ───╮', '│  Pick a color  │', '│  ○ Red  │', '╰───────────╯'];
    expect(read([...history, '', TOP, bottom('')]).dialog).toBeNull();
  });
});

describe('oh-my-pi pickers', () => {
  it('reads the slash palette under the composer as a menu, keeping the typed text', () => {
    expect(read([TOP, bottom('/ne'), '❯ new        Start a new session', '  next       Something else'])).toEqual({
      harness: 'omp',
      state: 'idle',
      dialog: 'menu',
      draft: '/ne',
    });
  });

  it('reads a short picker, but not a picker hint left in the transcript above the composer', () => {
    expect(read(['❯ session one', '  session two', '[Enter select · Esc cancel]']).dialog).toBe('menu');
    expect(read(['❯ session one', '[Enter select · Esc cancel]', TOP, bottom('')]).dialog).toBeNull();
  });

  it('needs the picker hint: the settings capture without it is no menu', () => {
    const text = readFileSync(new URL('omp--menu-settings.txt', FIXTURES), 'utf8');
    expect(readOmp(parseScreen(text)).dialog).toBe('menu');
    const cut = text.split(/\r?\n/).filter((r) => !r.includes('Esc to close')).join('\n');
    expect(readOmp(parseScreen(cut)).dialog).toBeNull();
  });
});

describe('omp 18 on its real screens (harness/omp/captures)', () => {
  const captured = (name: string) => readFileSync(new URL(`./captures/omp--${name}.txt`, import.meta.url), 'utf8');

  it('the bash approval: the tool, its command, Approve / Deny; arrows and Enter answer it wherever the pointer is', () => {
    const card = readCard('omp', captured('approval'))!;
    expect(card).toMatchObject({ kind: 'permission', title: 'bash', question: 'Allow tool: bash', body: ['Command: rm -rf build'], answerable: true });
    expect(card.options.map((o) => o.label)).toEqual(['Approve', 'Deny']);
    expect(answerPlan('omp', card, { option: 1 })).toEqual({ ok: true, steps: ['Up', 'Enter'] });
    expect(answerPlan('omp', card, { option: 2 })).toEqual({ ok: true, steps: ['Up', 'Down', 'Enter'] });
    expect(answerPlan('omp', card, { option: 3 }).ok).toBe(false);
    expect(readCard('omp', captured('approval-second'))?.signature).toBe(card.signature);
  });

  it('the draft sits on the bottom edge, which has no right corner', () => {
    expect(readOmp(parseScreen(captured('draft')))).toMatchObject({ state: 'idle', draft: 'fix the flaky login test' });
  });
});

describe("omp 18's ask tool on its real screens (captures/omp--ask*)", () => {
  const capture = (name: string) => readFileSync(new URL(`captures/omp--${name}.txt`, import.meta.url), 'utf8');
  const cardOf = (name: string) => {
    const c = readCard('omp', capture(name));
    if (!c) throw new Error(`no card on omp--${name}`);
    return c;
  };

  it('reads each option with the description indented under it; Other takes typed words', () => {
    expect(cardOf('ask').options.map((o) => [o.label, o.description, o.freeText])).toEqual([
      ['Black', 'The classic coat', false],
      ['Sable', 'Golden brown', false],
      ['Other (type your own)', null, true],
    ]);
  });

  it('the same card wherever the pointer is, and one plan for it: to the top, down to the choice, Enter', () => {
    expect(cardOf('ask-moved').signature).toBe(cardOf('ask').signature);
    expect(answerPlan('omp', cardOf('ask-moved'), { option: 2 })).toEqual({ ok: true, steps: ['Up', 'Up', 'Down', 'Enter'] });
    expect(answerPlan('omp', cardOf('ask'), { option: 3 })).toEqual({ ok: false, reason: 'option 3 ("Other (type your own)") asks for typed text' });
  });

  it('two questions: the open tab; the review lists the answers and submits with Enter', () => {
    expect(cardOf('ask-two')).toMatchObject({ kind: 'wizard', activeTab: 0, question: 'Which colour should the collie be?' });
    expect(cardOf('ask-two-second')).toMatchObject({ kind: 'wizard', activeTab: 1, question: 'How big should it be?' });
    const review = cardOf('ask-review');
    expect(review).toMatchObject({ kind: 'review', body: ['1. Colour: Black', '2. Size: Small'], activeTab: 2 });
    expect(answerPlan('omp', review, { option: 1 })).toEqual({ ok: true, steps: ['Enter'] });
  });

  it('a multi-select: the ticked box read; toggles go from the top with Space, then Enter; one option is refused', () => {
    expect(cardOf('ask-multi-ticked').options.map((o) => o.checked)).toEqual([true, false, false]);
    expect(answerPlan('omp', cardOf('ask-multi'), { toggle: [2, 1] })).toEqual({ ok: true, steps: ['Up', 'Up', 'Space', 'Down', 'Space', 'Enter'] });
    expect(answerPlan('omp', cardOf('ask-multi'), { option: 1 })).toEqual({ ok: false, reason: 'a multi-select question takes the boxes to toggle' });
  });
});
