import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangesAnswer, ErrorBody, FileAnswer, FilesAnswer } from '@collie/protocol';
import type { TempDir, TmuxServer } from '@collie/testkit';
import { fakeBody, keys } from '../../src/redact/redact-corpus';
import type { TestBridge } from '../harness';
import { git, watchPaneIn } from '../workbench-helpers';
import { liveDesk, type LiveDesk } from '../live-rig';

/**
 * The attack: a watch-only device reads a pane's `.env`, `.git/config` (a token in the remote
 * URL) and its diff through the files and changes routes. With `COLLIE_REDACT` on (the
 * default) nothing the bridge serves holds a secret, and `.git` is not served at all.
 */
const password = `hunter2${fakeBody(10, 40)}`;
// A token as the whole user part of a remote URL, as git takes it.
const urlToken = fakeBody(32, 41);
const secrets = [keys.awsKeyId, keys.awsSecret, keys.openaiProject, keys.githubPat, keys.anthropic, password, urlToken];
const pemLines = ['-----BEGIN ' + 'RSA PRIVATE KEY-----', fakeBody(64, 20, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'), fakeBody(64, 21), '-----END ' + 'RSA PRIVATE KEY-----'];
const env = [`AWS_ACCESS_KEY_ID=${keys.awsKeyId}`, `AWS_SECRET_ACCESS_KEY=${keys.awsSecret}`, `OPENAI_API_KEY=${keys.openaiProject}`, `DB_PASSWORD=${password}`, ''].join('\n');

describe('security: secrets in files, listings and diffs are served masked, and .git not at all (real git, real tmux, real bridge)', () => {
  let desk: LiveDesk;
  let tmux: TmuxServer, state: TempDir, work: TempDir;
  let repo: string;
  let bridge: TestBridge;
  let get: (route: string) => Promise<Response>;

  const clean = (text: string) => {
    for (const s of secrets) expect(text).not.toContain(s);
    expect(text).not.toContain(pemLines[1]);
  };
  const refused = async (res: Response) => {
    const text = await res.text();
    expect(res.status, text).toBe(403);
    expect(ErrorBody.parse(JSON.parse(text)).error.code).toBe('forbidden_path');
    clean(text);
  };

  beforeAll(async () => {
    desk = await liveDesk('collie-secrets');
    ({ tmux, state, work } = desk);
    repo = join(await realpath(work.path), 'shop');
    await git(work.path, 'init', '-q', '-b', 'main', repo);
    await mkdir(join(repo, 'src'));
    await writeFile(join(repo, 'src', 'config.ts'), 'export const region = "eu";\n');
    await writeFile(join(repo, 'a-big.txt'), 'x\n');
    await writeFile(join(repo, 'z-keys.txt'), 'none yet\n');
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'first');
    await git(repo, 'remote', 'add', 'origin', `https://alice:${keys.githubPat}@github.com/acme/shop.git`);
    await writeFile(join(repo, '.env'), env);
    await writeFile(join(repo, 'src', 'config.ts'), `export const region = "eu";\nexport const key = "${keys.anthropic}";\n${pemLines.join('\n')}\n`);
    // Over one page (2,000 lines) before the file with the keys: they are on the second page.
    await writeFile(join(repo, 'a-big.txt'), Array.from({ length: 2100 }, (_, i) => `line ${i}`).join('\n') + '\n');
    await writeFile(join(repo, 'z-keys.txt'), `${env}git clone https://${urlToken}@github.com/acme/shop.git\ngit remote add up https://alice:${keys.githubPat}@github.com/acme/shop.git\n`);
    await symlink('.git/config', join(repo, 'gitconf'));
    ({ bridge, get } = await watchPaneIn(tmux, state.path, 'shop', repo));
    desk.keep(bridge);
  }, 60_000);

  afterAll(() => desk?.[Symbol.asyncDispose]());

  it('serves .env masked, each value gone, its name kept', async () => {
    const res = await get('file?path=.env');
    const text = await res.text();
    expect(res.status, text).toBe(200);
    clean(text);
    const f = FileAnswer.parse(JSON.parse(text));
    expect(f.kind === 'text' && f.text).toMatch(/^AWS_ACCESS_KEY_ID=AKIA…\nAWS_SECRET_ACCESS_KEY=…\nOPENAI_API_KEY=…\nDB_PASSWORD=…\n$/);
  });

  it('serves a source file with a key and a private key block masked', async () => {
    const res = await get('file?path=src/config.ts');
    const text = await res.text();
    expect(res.status, text).toBe(200);
    clean(text);
    const f = FileAnswer.parse(JSON.parse(text));
    expect(f.kind === 'text' && f.text).toContain('export const region = "eu";');
  });

  it('refuses .git: its listing, its config, anything under it, and a symlink to it', async () => {
    await refused(await get('files?path=.git'));
    await refused(await get('files?path=.git/refs'));
    await refused(await get('file?path=.git/config'));
    await refused(await get('file?path=.git/HEAD'));
    await refused(await get('file?path=gitconf'));
    await refused(await get('file?path=src/.git/config'));
    const root = FilesAnswer.parse(await (await get('files?path=')).json());
    expect(root.entries.map((e) => e.name)).not.toContain('.git');
  });

  it('serves the diff masked on every page: every line, the private key block too', async () => {
    const first = ChangesAnswer.parse(await (await get('changes?page=0')).json());
    expect(first.pages).toBeGreaterThan(1);
    const all: ChangesAnswer[] = [first];
    for (let p = 1; p < first.pages; p++) {
      const res = await get(`changes?page=${p}`);
      const text = await res.text();
      expect(res.status, text).toBe(200);
      clean(text);
      all.push(ChangesAnswer.parse(JSON.parse(text)));
    }
    clean(JSON.stringify(first));
    const lines = all.flatMap((c) => c.files.flatMap((f) => f.hunks.flatMap((h) => h.lines.map((l) => l.text))));
    expect(lines).toContain('DB_PASSWORD=…');
    expect(lines).toContain('OPENAI_API_KEY=…');
    expect(lines).toContain('git clone https://…@github.com/acme/shop.git');
    expect(lines).toContain('git remote add up https://alice:…@github.com/acme/shop.git');
    expect(lines.filter((l) => l.startsWith('line ')).length).toBeGreaterThan(1900);
  });
});
