import { mkdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTmux, tempDir, type TempDir, type TmuxServer as TestTmux } from '@collie/testkit';
import { TmuxServer, formatLiteral } from '../../src/mux/tmux';
import { decodeText, textField } from '../../src/mux/tmux/formats';

/** Runs per property; FIELDS_RUNS raises it for a longer soak. */
const RUNS = Number(process.env.FIELDS_RUNS ?? 15);

/** Bytes and words that once split, forged or expanded a row, and plain text around them. */
const hostile = fc.constantFrom(
  '\n', '\x1f', '\r', '\t', '\x01', '\x7f', '#', '##', '#[', '##[fg=red]', '#{pane_id}', '#(touch PWNED)', '#S', '#,', '#}', '%', '%0A', '%1F', '%25', '%%', '%Y', '~', '~~', '~n', '~u',
  '\\', '\\n', '"', "'", '$', '$HOME', '~', ';', ' ', ':', '.', ',', '{', '}', '(', ')', '[', ']', 'é', '日本', '😀', 'a', 'Z', '0', '-', '%end 1 2 1',
);
const text = fc.array(hostile, { minLength: 1, maxLength: 8 }).map((a) => a.join(''));
const folderName = text.filter((s) => s !== '.' && s !== '..' && !s.includes('/') && Buffer.byteLength(s) < 200);
/** Any bytes a folder name may hold (no NUL, no slash), most of them not UTF-8. */
const folderBytes = fc.uint8Array({ minLength: 1, maxLength: 12 }).map((b) => Buffer.from(b.filter((x) => x !== 0 && x !== 0x2f))).filter((b) => b.length > 0 && b.toString('latin1') !== '.' && b.toString('latin1') !== '..');

/** What tmux 3.3a keeps as a pane title: it refuses one with a control byte (utf8_isvalid). */
const keptTitle = (title: string, before: string) => (/[\x00-\x1f\x7f]/.test(title) ? before : title);

/**
 * Hostile folder names, pane titles, window names and option values through a real tmux
 * server, read back by the bridge's own `TmuxServer` (control mode): every pane appears once,
 * with its real id, pid, folder, title and window name, and nothing is expanded or run.
 */
describe('security: tmux fields read back whole, whatever bytes they hold (fast-check, real tmux)', () => {
  let tmux: TestTmux;
  let dir: TempDir;
  let server: TmuxServer;
  let basePane: string;

  beforeAll(async () => {
    tmux = await startTmux();
    dir = await tempDir('collie-fields');
    basePane = await tmux.newSession('fuzz', { cmd: 'cat' });
    server = new TmuxServer(tmux.name, tmux.socketPath, tmux.env);
    await server.start();
  }, 60_000);

  afterAll(async () => {
    server?.stop();
    await tmux?.kill();
    await dir?.remove();
  });

  /** A window running `cat` in `folder` (bytes), started by `sh` so no byte goes through a tmux argument. */
  const windowInBytes = async (folder: Buffer, made: string[]): Promise<{ id: string; pid: number }> => {
    const octal = [...folder].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('');
    const [out] = await server.command(['new-window', '-d', '-P', '-F', '#{pane_id} #{pane_pid}', '-t', 'fuzz:', '--', 'sh', '-c', 'd=$(printf "$1/x"); cd "${d%/x}" && exec cat', 'sh', octal]);
    const [id, pid] = out!.split(' ');
    made.push(id!);
    await catIn(Number(pid), folder);
    return { id: id!, pid: Number(pid) };
  };

  /** Ready once the pane's process, in its folder, has become cat (in place: the pane's pid stays). */
  const catIn = async (pid: number, folder: Buffer): Promise<void> => {
    for (;;) {
      // tmux names the command from /proc/<pid>/cmdline, filled in a moment after exec renames the process.
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      const cwd = await readlink(`/proc/${pid}/cwd`, { encoding: 'buffer' }).catch(() => null);
      if (cmdline.startsWith('cat\0') && cwd?.equals(folder)) return;
      await new Promise((r) => setImmediate(r));
    }
  };

  it('folders, titles and window names round-trip; each pane is listed once under its own id', async () => {
    const root = join(dir.path, 'f');
    await mkdir(root);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(folderName, folderBytes, text, text, async (name, bytes, title, windowName) => {
        const run = join(root, String(n++));
        await mkdir(run);
        // One pane opened as the New page opens one (the folder through -c), one that cd's into any bytes.
        const folder = join(run, name);
        await mkdir(folder);
        const made: string[] = [];
        try {
          const [out] = await server.command(['new-window', '-d', '-P', '-F', '#{pane_id} #{pane_pid}', '-t', 'fuzz:', '-c', formatLiteral(folder), '--', 'cat']);
          const [a, aPid] = out!.split(' ') as [string, string];
          made.push(a);
          await catIn(Number(aPid), Buffer.from(folder));
          const rawFolder = Buffer.concat([Buffer.from(`${run}/`), bytes]);
          await mkdir(rawFolder);
          const b = await windowInBytes(rawFolder, made);
          await server.commands([['select-pane', '-t', a, '-T', 'start'], ['select-pane', '-t', a, '-T', formatLiteral(title)], ['rename-window', '-t', a, '--', formatLiteral(windowName)]]);
          // tmux keeps a window name with control bytes, `\`, `$` and quotes escaped (vis): the oracle is tmux's own one-field answer then.
          const shownName = /[\x00-\x1f\x7f\\$"`]/.test(windowName) ? (await tmux.tmux('display-message', '-p', '-t', a, '#{window_name}')).replace(/\n$/, '') : windowName;

          const panes = await server.listPanes();
          expect(panes.map((p) => p.paneId).sort()).toEqual([basePane, a, b.id].sort());
          const pa = panes.find((p) => p.paneId === a)!;
          expect(pa).toMatchObject({ pid: Number(aPid), cwd: folder, title: keptTitle(title, 'start'), windowName: shownName, sessionName: 'fuzz', command: 'cat', dead: false });
          expect(panes.find((p) => p.paneId === b.id)).toMatchObject({ pid: b.pid, cwd: rawFolder.toString('utf8'), command: 'cat' });
          expect(await server.describePane(a)).toEqual(pa);
        } finally {
          for (const id of made) await server.command(['kill-pane', '-t', id]);
        }
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('any text set as an option (quoted for the control line) reads back exactly through textField', async () => {
    const anyText = fc.oneof(text, fc.string({ unit: 'grapheme', maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }).map((s) => s.replace(/\0/g, '')));
    await fc.assert(
      fc.asyncProperty(anyText, async (value) => {
        await server.command(['set-option', '-p', '-t', basePane, '@collie_probe', value]);
        const lines = await server.command(['display-message', '-p', '-t', basePane, textField('@collie_probe')]);
        expect(lines).toHaveLength(1);
        expect(decodeText(lines[0]!)).toBe(Buffer.from(value).toString('utf8'));
      }),
      { numRuns: RUNS * 10 },
    );
  }, 60_000);
});
