import { BranchName, type NewOptions, type NewPaneRequest } from '@collie/protocol';

/** What the New page's form holds. */
export interface NewForm {
  readonly launcher: string;
  readonly folder: string;
  /** `server\nsession`, or `server\n` for a new session. */
  readonly where: string;
  readonly worktree: boolean;
  readonly branch: string;
  readonly message: string;
}

/** The form's first choices: the first launcher (saved ones come first), the first folder (recent ones first), a new session on the first server. Pure. */
export function initialForm(o: NewOptions): NewForm {
  const server = o.sessions[0]?.server ?? '';
  return { launcher: o.launchers[0]?.name ?? '', folder: o.folders[0]?.path ?? '', where: `${server}\n`, worktree: false, branch: '', message: '' };
}

/** `<repo>/../<repo>-worktrees/<branch>` (or `<worktreeDir>/<repo>/<branch>`), as the bridge makes it, shown before it is made. Pure. */
export function worktreePreview(folder: string, branch: string, worktreeDir: string | null = null): string {
  const repo = folder.replace(/\/+$/, '');
  const cut = repo.lastIndexOf('/');
  const b = branch || '<branch>';
  return worktreeDir ? `${worktreeDir.replace(/\/+$/, '')}/${repo.slice(cut + 1)}/${b}` : `${repo.slice(0, cut + 1)}${repo.slice(cut + 1)}-worktrees/${b}`;
}

/** The request the form makes, or the words saying what is missing. Pure. */
export function newRequest(f: NewForm, o: NewOptions, requestId: string): { readonly ok: true; readonly body: NewPaneRequest } | { readonly ok: false; readonly problem: string } {
  if (!o.launchers.some((l) => l.name === f.launcher)) return { ok: false, problem: 'Choose what to run.' };
  if (!o.folders.some((x) => x.path === f.folder)) return { ok: false, problem: 'Choose a folder.' };
  const repo = o.folders.find((x) => x.path === f.folder)?.repo ?? false;
  if (f.worktree && !repo) return { ok: false, problem: 'A worktree needs a folder that is a git repository.' };
  if (f.worktree && !BranchName.safeParse(f.branch).success) return { ok: false, problem: 'A branch name is letters, digits, . _ / -, without .. and not starting with - or /.' };
  const nl = f.where.indexOf('\n');
  const server = f.where.slice(0, nl);
  const session = f.where.slice(nl + 1);
  if (!server) return { ok: false, problem: 'No tmux server is followed.' };
  return {
    ok: true,
    body: { folder: f.folder, launcher: f.launcher, server, session: session === '' ? null : session, worktree: f.worktree ? f.branch : null, first_message: f.message.trim() === '' ? null : f.message, request_id: requestId },
  };
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
