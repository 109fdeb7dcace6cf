/**
 * `nerve` command lines, parsed purely. Exit codes: 0 done, 1 the gateway failed while
 * running, 2 a usage error, 3 a bad config.yaml (the message names the file, key and problem).
 */

export const EXIT = { ok: 0, failed: 1, usage: 2, config: 3 } as const;

export type Command = { kind: 'serve'; config: string; verbose: boolean } | { kind: 'help' } | { kind: 'version' };
export type Parsed = { ok: true; command: Command } | { ok: false; message: string };

export const USAGE = `usage: nerve serve --config <config.yaml> [-v]
       nerve --help | --version`;

export function parseArgs(argv: readonly string[]): Parsed {
  const args = [...argv];
  if (args.length === 0) return { ok: false, message: 'nerve: no command given' };
  const first = args.shift()!;
  if (first === '--help' || first === '-h' || first === 'help') return args.length ? { ok: false, message: `nerve: unexpected ${args[0]}` } : { ok: true, command: { kind: 'help' } };
  if (first === '--version') return args.length ? { ok: false, message: `nerve: unexpected ${args[0]}` } : { ok: true, command: { kind: 'version' } };
  if (first !== 'serve') return { ok: false, message: `nerve: unknown command '${first.slice(0, 80)}'` };
  let config: string | undefined;
  let verbose = false;
  while (args.length) {
    const a = args.shift()!;
    if (a === '-v' || a === '--verbose') verbose = true;
    else if (a === '--config' || a === '-c') {
      const v = args.shift();
      if (v === undefined || v === '') return { ok: false, message: 'nerve: --config needs a file' };
      config = v;
    } else if (a.startsWith('--config=')) {
      config = a.slice('--config='.length);
      if (!config) return { ok: false, message: 'nerve: --config needs a file' };
    } else return { ok: false, message: `nerve: unknown option '${a.slice(0, 80)}'` };
  }
  if (config === undefined) return { ok: false, message: 'nerve serve: --config <config.yaml> is required' };
  return { ok: true, command: { kind: 'serve', config, verbose } };
}
