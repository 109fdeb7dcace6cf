import { BranchName, LauncherArg, SaveLauncherRequest, type NewOptions, type NewPaneRequest } from '@collie/protocol';

/** What the New page's form holds. */
export interface NewForm {
  readonly launcher: string;
  readonly folder: string;
  /** `server\nsession`, or `server\n` for a new session. */
  readonly where: string;
  readonly worktree: boolean;
  readonly branch: string;
  readonly message: string;
  /** Extra arguments for the program, words separated by spaces. */
  readonly flags: string;
  /** Save what runs, its flags and the folder as a launcher named `saveName` before starting. */
  readonly save: boolean;
  readonly saveName: string;
}

/** The names a saved launcher may not take: the agents' and the shell's. */
const BUILT_IN = ['claude', 'codex', 'gemini', 'opencode', 'pi', 'omp', 'shell'];

/** The form's first choices: the first launcher (saved ones come first), its folder or the first folder (recent ones first), a new session on the first server. Pure. */
export function initialForm(o: NewOptions): NewForm {
  const server = o.sessions[0]?.server ?? '';
  const first: NewForm = { launcher: '', folder: o.folders[0]?.path ?? '', where: `${server}\n`, worktree: false, branch: '', message: '', flags: '', save: false, saveName: '' };
  return chooseLauncher(first, o, o.launchers[0]?.name ?? '');
}

/** The flags field as words: split on white space, no quoting (a word holds no space). Pure. */
export function flagWords(text: string): string[] {
  return text.split(/\s+/u).filter((w) => w !== '');
}

/** Choosing a launcher: a saved one with a folder picks its folder too (when offered). Pure. */
export function chooseLauncher(f: NewForm, o: NewOptions, name: string): NewForm {
  const l = o.launchers.find((x) => x.name === name);
  const folder = l?.folder && o.folders.some((x) => x.path === l.folder) ? l.folder : f.folder;
  const repo = o.folders.find((x) => x.path === folder)?.repo ?? false;
  return { ...f, launcher: name, folder, worktree: repo && f.worktree };
}

/** `<repo>/../<repo>-worktrees/<branch>` (or `<worktreeDir>/<repo>/<branch>`), as the bridge makes it, shown before it is made. Pure. */
export function worktreePreview(folder: string, branch: string, worktreeDir: string | null = null): string {
  const repo = folder.replace(/\/+$/, '');
  const cut = repo.lastIndexOf('/');
  const b = branch || '<branch>';
  return worktreeDir ? `${worktreeDir.replace(/\/+$/, '')}/${repo.slice(cut + 1)}/${b}` : `${repo.slice(0, cut + 1)}${repo.slice(cut + 1)}-worktrees/${b}`;
}

/** The request the form makes, or the words saying what is missing. Pure. */
export function newRequest(
  f: NewForm,
  o: NewOptions,
  requestId: string,
): { readonly ok: true; readonly body: NewPaneRequest; readonly save: SaveLauncherRequest | null } | { readonly ok: false; readonly problem: string } {
  if (!o.launchers.some((l) => l.name === f.launcher)) return { ok: false, problem: 'Choose what to run.' };
  if (!o.folders.some((x) => x.path === f.folder)) return { ok: false, problem: 'Choose a folder.' };
  const repo = o.folders.find((x) => x.path === f.folder)?.repo ?? false;
  if (f.worktree && !repo) return { ok: false, problem: 'A worktree needs a folder that is a git repository.' };
  if (f.worktree && !BranchName.safeParse(f.branch).success) return { ok: false, problem: 'A branch name is letters, digits, . _ / -, without .. and not starting with - or /.' };
  const nl = f.where.indexOf('\n');
  const server = f.where.slice(0, nl);
  const session = f.where.slice(nl + 1);
  if (!server) return { ok: false, problem: 'No tmux server is followed.' };
  const args = flagWords(f.flags);
  if (args.length > 20 || !args.every((a) => LauncherArg.safeParse(a).success)) return { ok: false, problem: 'Flags are at most 20 words of up to 500 characters.' };
  let save: SaveLauncherRequest | null = null;
  if (f.save) {
    const name = f.saveName.trim();
    if (BUILT_IN.includes(name)) return { ok: false, problem: `“${name}” is a built-in launcher's name; choose another.` };
    const parsed = SaveLauncherRequest.safeParse({ name, base: f.launcher, args, folder: f.folder });
    if (!parsed.success) return { ok: false, problem: 'A launcher name is 1 to 40 letters, digits, spaces, . _ -.' };
    save = parsed.data;
  }
  const body: NewPaneRequest = {
    folder: f.folder,
    // A saved launcher carries the flags: it is what starts.
    launcher: save ? save.name : f.launcher,
    server,
    session: session === '' ? null : session,
    worktree: f.worktree ? f.branch : null,
    ...(!save && args.length > 0 ? { args } : {}),
    first_message: f.message.trim() === '' ? null : f.message,
    request_id: requestId,
  };
  return { ok: true, body, save };
}

/**
 * The program a saved launcher runs, for its row: `env`, its options and `NAME=value` words
 * skipped, the program's base name and its own arguments (at most 60 characters). Pure.
 */
export function launcherWords(command: readonly string[]): string {
  let i = 0;
  if (command[0]?.split('/').at(-1) === 'env') {
    i = 1;
    while (i < command.length) {
      const w = command[i] ?? '';
      if (w === '-u' || w === '--unset' || w === '-C' || w === '--chdir') i += 2;
      else if (w.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) i += 1;
      else break;
    }
  }
  const [program, ...args] = command.slice(i);
  const text = [program?.split('/').at(-1) ?? '', ...args].join(' ').trim();
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
