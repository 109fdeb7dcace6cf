import { startClaude, type ClaudePane } from '../../claude';
import { claudeInputReady, claudePermissionDialog, claudeQuestionDialog, claudeWorking } from '../../claude-screen';
import { startMessagesApi, type Scenario } from '../../messages-api';
import { askUserQuestion, bashPermission, exitPlanMode, longTurn, planApproval, plainReply } from '../../scenarios';
import type { CaptureDriver, CaptureLabel } from '../../capture/driver';
import { captureReadme } from '../../capture/driver';
import type { ScreenPredicate } from '../../wait';

const SIZE = { width: 120, height: 40 };
/** Every wait is on a condition, with a bound generous enough for a machine loaded many times over. */
const WAIT = 120_000;

/**
 * Claude Code's capture driver: the real CLI against the scripted Messages API, through every
 * dialog it raises in a fresh config or a session. Startup: the onboarding steps, the API-key
 * approval, folder trust, the auto-mode nudge. In a session: the fresh and finished idle
 * screens, a running turn, the Bash permission (and its amend field), AskUserQuestion (one
 * question, its typed answer, "Chat about this", a multi-select, a two-question wizard and its
 * review, preview mockups), the pickers a command opens (/model, /effort, /resume), the slash-command popup, and in plan
 * mode "Exit plan mode?" and the plan approval.
 */
export const claudeCaptureDriver: CaptureDriver = {
  agent: 'claude',
  async capture({ tmux, keep }) {
    await using api = await startMessagesApi();
    const idle = (s: string) => claudeInputReady(s) && !claudeWorking(s);
    /**
     * Presses `keys` once and waits for `until`: for a key that would act again if it landed twice
     * (Enter, Esc); {@link ClaudePane.press} repeats keys a fresh dialog drops.
     */
    const once = async (c: ClaudePane, keys: string, until: ScreenPredicate) => {
      await tmux.sendKeys(c.paneId, keys);
      return c.waitForScreen(until, WAIT);
    };
    /**
     * Presses `key` until `until` shows, waiting 10 s for each press: a dialog was seen dropping a
     * digit even after it took an arrow. A press that only renders late may land twice (a box
     * unticked again); the next round then ticks it once more.
     */
    const retried = async (c: ClaudePane, key: string, until: RegExp) => {
      for (let i = 0; ; i++) {
        await tmux.sendKeys(c.paneId, key);
        if (await c.waitForScreen(until, 10_000).then(() => true, () => false)) return;
        if (i === 5) throw new Error(`claude: ${key} never gave ${String(until)}:\n${await c.capture()}`);
      }
    };
    /** Waits until a fresh dialog takes keys: the pointer moves down to option 2 (harmless, repeated while dropped). */
    const takesKeys = (c: ClaudePane) => c.press('Down', /❯ 2\./u, WAIT);
    /** A question declined with Esc ends the turn: no tool result comes back, so no closing turn may stay queued. */
    const declined = (sc: Scenario): Scenario => ({ ...sc, main: sc.main.slice(0, 1) });

    {
      await using c = await startClaude(tmux, api, { ...SIZE, dialogs: { onboarding: true }, ready: /Choose the text style/ });
      await keep(c.paneId, 'onboarding-theme', { state: 'blocked', dialog: 'setup', draft: false, note: 'first onboarding step: the theme picker' });
      await c.press('Enter', /Security notes:/, WAIT);
      await keep(c.paneId, 'onboarding-security', { state: 'blocked', dialog: 'setup', draft: false, options: ['Continue'], note: 'second onboarding step: Security notes' });
    }
    {
      await using c = await startClaude(tmux, api, { ...SIZE, dialogs: { apiKey: true }, ready: /Do you want to use this API key\?/ });
      await keep(c.paneId, 'api-key', { state: 'blocked', dialog: 'setup', draft: false, options: ['Yes', 'No (recommended)'], note: 'an unapproved ANTHROPIC_API_KEY' });
    }
    {
      await using c = await startClaude(tmux, api, { ...SIZE, dialogs: { trust: true }, ready: /Yes, I trust this folder/ });
      await keep(c.paneId, 'trust-unnumbered', { state: 'blocked', dialog: 'trust', draft: false, options: ['No, exit', 'Yes, I trust this folder'], note: 'folder trust at startup, unnumbered, pointer on No, exit' });
    }

    await using c = await startClaude(tmux, api, { ...SIZE, dialogs: { autoModeNudge: true }, ready: /Make auto mode your default permission mode\?/ });
    const shot = (name: string, label: CaptureLabel) => keep(c.paneId, name, label);
    await shot('auto-nudge', { state: 'blocked', dialog: 'setup', draft: false, options: ['Yes, set auto mode as my default permission mode', 'No, keep manual mode'], note: 'settings pin defaultMode' });
    await c.press(['Down'], /❯ No, keep manual mode/, WAIT);
    await c.press('Enter', /manual mode on/, WAIT);
    await c.waitForScreen(idle, WAIT);
    const version = /Claude Code v(\S+)/.exec(await c.capture())?.[1] ?? 'unknown';
    await shot('fresh-idle', { state: 'idle', dialog: null, draft: false, note: 'just started (the nudge answered): logo header, empty input box' });

    // Before any prompt, so the folder has no session yet.
    await c.submit('/resume');
    await c.waitForScreen(/(?:No sessions in this project yet|No conversations found)[\s\S]*Esc to (?:close|cancel)/u, WAIT);
    await shot('resume-empty', { state: 'idle', dialog: 'menu', draft: false, note: '/resume in a project with no sessions yet' });
    await once(c, 'Escape', (s) => !/Resume session/u.test(s) && idle(s));

    for (const [cmd, name, sign] of [['/model', 'model-picker', /Select model[\s\S]*Esc to cancel/u], ['/effort', 'effort-picker', /Effort[\s\S]*Esc to cancel/u]] as const) {
      await c.submit(cmd);
      await c.waitForScreen(sign, WAIT);
      await shot(name, { state: 'idle', dialog: 'menu', draft: false, note: `${cmd} opened by the user` });
      await once(c, 'Escape', (s) => !sign.test(s) && idle(s));
    }
    // The slash-command popup under the box while "/" is typed: a menu, not a draft.
    const POPUP = /^\s*\/[\w:-]+\s{2,}\S[\s\S]*^\s*\/[\w:-]+\s{2,}\S/mu;
    await tmux.typeText(c.paneId, '/');
    await c.waitForScreen(POPUP, WAIT);
    await shot('slash-popup', { state: 'idle', dialog: 'menu', draft: true, draftText: '/', note: 'the slash-command popup under the input box, "/" typed: a menu, and the box holds "/"' });
    await once(c, 'BSpace', (s) => !POPUP.test(s) && idle(s));

    api.script(plainReply('Hello from the scripted API. The turn is over.'));
    await c.submit('say hello');
    await c.waitForScreen((s) => s.includes('The turn is over.') && idle(s), WAIT);
    await shot('done', { state: 'idle', dialog: null, draft: false, note: 'a finished turn: the reply and the "done" line above the box' });

    api.script(longTurn(20_000, 'The long turn is over.'));
    await c.submit('work for a while');
    await c.waitForScreen((s) => claudeWorking(s) && /\(\d+s/u.test(s), WAIT);
    await shot('working', { state: 'working', dialog: null, draft: false, note: 'a long turn streaming; "esc to interrupt" in the footer' });
    await c.waitForScreen((s) => s.includes('The long turn is over.') && idle(s), WAIT);

    api.script(bashPermission('touch made-by-bash', { description: 'Create a marker file' }));
    await c.submit('make the marker file');
    await c.waitForScreen(claudePermissionDialog, WAIT);
    await shot('permission-bash', { state: 'blocked', dialog: 'permission', draft: false, note: 'a Bash permission with the auto-mode tip' });
    await c.press('Tab', /Yes, and tell Claude what to do next/u, WAIT);
    await shot('permission-amend', { state: 'blocked', dialog: 'permission', draft: false, answerable: false, note: 'the same after Tab: option 1 is a text field' });
    // Enter on the empty amend field was seen ignored: words in it make Enter take "Yes" with them.
    await tmux.typeText(c.paneId, 'go ahead');
    await c.waitForScreen(/go ahead/u, WAIT);
    await once(c, 'Enter', (s) => !claudePermissionDialog(s));
    await c.waitForScreen((s) => s.includes('The command finished') && idle(s), WAIT);

    const colour = { question: 'Which colour should the collie be?', header: 'Colour', options: [{ label: 'Black', description: 'The classic coat' }, { label: 'Sable', description: 'Golden brown' }] };
    api.script(declined(askUserQuestion([colour])));
    await c.submit('ask me something');
    await c.waitForScreen(claudeQuestionDialog, WAIT);
    await shot('select-question', { state: 'blocked', dialog: 'select', draft: false, options: ['Black', 'Sable', 'Type something.', 'Chat about this'], note: 'AskUserQuestion, one question, single select' });
    await takesKeys(c);
    await retried(c, '3', /❯ 3\./u);
    // Keys typed as the field takes focus were seen lost: type again until the row shows them.
    for (let i = 0; ; i++) {
      await tmux.typeText(c.paneId, 'teal');
      if (await c.waitForScreen(/❯ 3\. teal/u, 15_000).then(() => true, () => false)) break;
      if (i === 4) throw new Error(`claude: "teal" never showed in Type something.:\n${await c.capture()}`);
    }
    await shot('select-typing', { state: 'blocked', dialog: 'select', draft: false, answerable: false, note: 'a single-select question, words typed into Type something.' });
    await once(c, 'Down', /❯ 4\. Chat about this/u);
    await shot('select-chat-focused', { state: 'blocked', dialog: 'select', draft: false, answerable: false, note: 'pointer on Chat about this' });
    await once(c, 'Escape', (s) => !claudeQuestionDialog(s));
    await c.waitForScreen(idle, WAIT);

    const toppings = { question: 'Which toppings?', header: 'Toppings', multiSelect: true, options: ['Cheese', 'Olives', 'Peppers', 'Ham'].map((l) => ({ label: l, description: `About ${l}.` })) };
    api.script(declined(askUserQuestion([toppings])));
    await c.submit('ask me to pick several');
    await c.waitForScreen(claudeQuestionDialog, WAIT);
    await takesKeys(c);
    await retried(c, '2', /2\. \[✔\] Olives/u);
    await retried(c, '4', /4\. \[✔\] Ham/u);
    await shot('multiselect-checked', { state: 'blocked', dialog: 'multiselect', draft: false, note: 'a lone multi-select, boxes 2 and 4 ticked' });
    await once(c, 'Escape', (s) => !claudeQuestionDialog(s));
    await c.waitForScreen(idle, WAIT);

    const size = { question: 'Which size?', header: 'Size', options: ['Small', 'Large'].map((l) => ({ label: l, description: `About ${l}.` })) };
    const crust = { question: 'Which crust?', header: 'Crust', options: ['Thin', 'Thick', 'Stuffed'].map((l) => ({ label: l, description: `About ${l}.` })) };
    api.script(askUserQuestion([size, crust]));
    await c.submit('ask me two things');
    await c.waitForScreen(/Which size\?[\s\S]*Esc to cancel/u, WAIT);
    await takesKeys(c);
    await retried(c, '1', /Which crust\?/u);
    await shot('wizard-q2', { state: 'blocked', dialog: 'wizard', draft: false, note: 'second tab of a two-question wizard' });
    await retried(c, '2', /Review your answers/u);
    await shot('wizard-review', { state: 'blocked', dialog: 'review', draft: false, note: 'its review tab' });
    await once(c, '1', (s) => !/Review your answers/u.test(s));
    await c.waitForScreen(idle, WAIT);

    const design = {
      question: 'Which design?',
      header: 'Design',
      options: [
        { label: 'Boxy', description: 'Square corners', preview: '+------+\n| Boxy |\n+------+' },
        { label: 'Round', description: 'Soft corners', preview: '(  Round  )' },
      ],
    };
    api.script(declined(askUserQuestion([design])));
    await c.submit('show me designs');
    await c.waitForScreen(/Which design\?[\s\S]*Esc to cancel/u, WAIT);
    await shot('preview', { state: 'blocked', dialog: 'preview', draft: false, note: 'a question with preview mockups' });
    await c.press('Escape', (s) => !/Which design\?[\s\S]*Esc to cancel/u.test(s), WAIT);
    await c.waitForScreen(idle, WAIT);

    {
      await using p = await startClaude(tmux, api, { ...SIZE, args: ['--permission-mode', 'plan'] });
      // "No" rejects the plan and ends the turn (nothing comes back): no closing turn queued.
      api.script(declined(exitPlanMode()));
      await p.submit('leave plan mode');
      await p.waitForScreen(/Exit plan mode\?/u, WAIT);
      await keep(p.paneId, 'exit-plan-mode', { state: 'blocked', dialog: 'plan', draft: false, note: 'ExitPlanMode with no plan file: Exit plan mode?' });
      await p.press('Down', /❯ 2\. No/u, WAIT);
      await once(p, 'Enter', (s) => !/Exit plan mode\?/u.test(s));
      await p.waitForScreen((s) => /[Rr]ejected Claude's plan/u.test(s) && idle(s), WAIT);
      api.script(planApproval('# Plan\n\n1. Write haiku.txt\n2. Read it back'));
      await p.submit('plan a haiku');
      await p.waitForScreen(/Would you like to proceed\?/u, WAIT);
      await keep(p.paneId, 'plan-approval', { state: 'blocked', dialog: 'plan', draft: false, note: 'the plan approval after ExitPlanMode with a plan file' });
    }

    return { version, readme: captureReadme('Claude Code', 'claude', version, SIZE, 'the scripted Messages API') };
  },
};
