/**
 * What keeps a repository's own configuration from running commands when the bridge runs git
 * in it. A pane's folder is the agent's, and its `.git/config` (or a file it includes) may name
 * programs git runs on its own: `core.fsmonitor` on every status, clean filters and textconv
 * on every diff, hooks on a checkout, a pager, an editor, a credential helper, gpg… Every
 * `git` the bridge runs goes through `git()` in `git.ts`, which passes these. Pure.
 */

/** Fixed overrides, given as `-c` (command-line config wins over every config file). */
export const SAFE_CONFIG: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  // A folder with no hooks: no post-checkout, reference-transaction, post-index-change, …
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  ['core.askPass', ''],
  ['core.sshCommand', 'false'],
  ['core.alternateRefsCommand', ''],
  ['credential.helper', ''],
  ['diff.external', ''],
  ['gpg.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['log.showSignature', 'false'],
  // The bridge never fetches: no transport at all (ext::, ssh, http, file).
  ['protocol.allow', 'never'],
  // Never into a submodule, whose own config names its own filters (callers also pass
  // `--ignore-submodules=dirty` to status and diff).
  ['submodule.recurse', 'false'],
  ['diff.submodule', 'short'],
  ['status.submoduleSummary', 'false'],
  ['core.quotePath', 'false'],
  ['color.ui', 'false'],
];

/** The environment of every git: the bridge's own, less every `GIT_*` it may have inherited (a `GIT_DIR`, an external diff), plus these. */
export function gitEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!k.startsWith('GIT_')) env[k] = v;
  return {
    ...env,
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    GIT_EDITOR: ':',
    GIT_SEQUENCE_EDITOR: ':',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_PROTOCOL_FROM_USER: '0',
    LC_ALL: 'C',
  };
}

/** The `-c` arguments of {@link SAFE_CONFIG}. */
export function safeConfigArgs(): string[] {
  return SAFE_CONFIG.flatMap(([k, v]) => ['-c', `${k}=${v}`]);
}

/**
 * Filters and diff drivers are named by `.gitattributes` (the repository's own) and defined in
 * config under any name, so no fixed `-c` turns them all off: the names defined are read first
 * (`git config -z --get-regexp '^(filter|diff)\.'`, which runs nothing), and each one's commands
 * are emptied. Given as `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n`, which
 * take a name with any character (`-c` would split one holding `=`).
 */
export function driverOverrides(configOut: string): Record<string, string> {
  const filters = new Set<string>();
  const diffs = new Set<string>();
  for (const entry of configOut.split('\0')) {
    const key = entry.split('\n', 1)[0] ?? '';
    const m = /^(filter|diff)\.(.+)\.[^.]+$/s.exec(key);
    if (!m || m[2] === undefined) continue;
    (m[1] === 'filter' ? filters : diffs).add(m[2]);
  }
  const pairs: [string, string][] = [];
  for (const name of filters) pairs.push([`filter.${name}.clean`, ''], [`filter.${name}.smudge`, ''], [`filter.${name}.process`, ''], [`filter.${name}.required`, 'false']);
  for (const name of diffs) pairs.push([`diff.${name}.textconv`, ''], [`diff.${name}.command`, '']);
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}
