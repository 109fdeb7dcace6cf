import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { submitTyped, type RequestLog } from '../src/agents/submit';
import { startTmux } from '../src/tmux';
import { tempDir } from '../src/temp-dir';

/** A pane that shows what is typed and never clears it, and counts each Enter in a file. */
const KEEPER = `
const fs = require('node:fs');
process.stdin.setRawMode(true);
let enters = 0;
process.stdin.on('data', (d) => {
  for (const c of d.toString()) {
    if (c === '\\r') fs.writeFileSync(process.argv[1], String(++enters));
    else if (c === '\\u0003') process.exit(0);
    else process.stdout.write(c);
  }
});
`;

describe('submitTyped', () => {
  it('presses Enter again while the box holds the text and no request carried it', async () => {
    await using tmux = await startTmux();
    await using dir = await tempDir('collie-submit-');
    const count = join(dir.path, 'enters');
    const pane = await tmux.newSession('keeper', { cmd: [process.execPath, '-e', KEEPER, count] });
    await expect(submitTyped(tmux, pane, 'hello there', (s) => s, 4_000, [])).rejects.toThrow(/Enter did not submit/);
    expect(Number(await readFile(count, 'utf8'))).toBeGreaterThan(1);
  });

  it('never presses Enter again once the model API has the text', async () => {
    await using tmux = await startTmux();
    await using dir = await tempDir('collie-submit-');
    const count = join(dir.path, 'enters');
    const pane = await tmux.newSession('keeper', { cmd: [process.execPath, '-e', KEEPER, count] });
    const requests: { body: unknown }[] = [{ body: { messages: [{ content: 'an older turn' }] } }];
    // The agent sent the text to its model on the first Enter but, loaded, never redrew its box.
    const arrived = (async () => {
      for (;;) {
        const n = await readFile(count, 'utf8').catch(() => '0');
        if (n !== '0') return requests.push({ body: { messages: [{ content: 'say hello there' }] } });
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    await submitTyped(tmux, pane, 'hello there', (s) => s, 10_000, requests as RequestLog);
    await arrived;
    expect(await readFile(count, 'utf8')).toBe('1');
  });
});
