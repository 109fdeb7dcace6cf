import { appendFileSync, statSync } from 'node:fs';
import { appendFile, rename, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DurableItem } from '@collie/protocol';
import { tempDir, type TempDir } from '@collie/testkit';
import { makeRedactor } from '../redact';
import { parseClaudeLine } from './claude-lines';
import { TranscriptFollower } from './follow';

const user = (text: string, uuid = text) => JSON.stringify({ type: 'user', uuid, sessionId: 's1', timestamp: '2026-12-03T20:00:00Z', message: { role: 'user', content: text } });
const reply = (text: string) => JSON.stringify({ type: 'assistant', sessionId: 's1', timestamp: '2026-12-03T20:00:01Z', message: { role: 'assistant', content: [{ type: 'text', text }] } });
const call = (id: string, command: string) => JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } });
const result = (id: string, content: string, isError = false) => JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] } });

/** Collects what the follower reports, and waits for it (the watcher is asynchronous). */
function recorder() {
  const seen: DurableItem[][] = [];
  let resets = 0;
  const waiters: Array<() => void> = [];
  const tick = () => waiters.splice(0).forEach((w) => w());
  return {
    seen,
    get resets() {
      return resets;
    },
    on: { items: (xs: DurableItem[]) => (seen.push(xs), tick()), reset: () => (resets++, tick()) },
    async until(what: string, ok: () => boolean, ms = 10_000) {
      const end = Date.now() + ms;
      while (!ok()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
  };
}

describe('following a transcript file', () => {
  let dir: TempDir;
  let path: string;
  let f: TranscriptFollower | null = null;
  beforeEach(async () => {
    dir = await tempDir('collie-transcript-');
    path = join(dir.path, 's1.jsonl');
  });
  afterEach(async () => {
    f?.close();
    await dir.remove();
  });

  it('reads appended lines, holds a partial line until its newline lands, settles a tool call by its result', async () => {
    await writeFile(path, `${user('hello')}\n${reply('Hi.')}\n`);
    const r = recorder();
    f = await TranscriptFollower.open(path, parseClaudeLine, (s) => s, r.on);
    expect(f.log.items.map((i) => [i.kind, 'text' in i ? i.text : ''])).toEqual([
      ['user', 'hello'],
      ['markdown', 'Hi.'],
    ]);
    const line = call('t1', 'ls -la');
    await appendFile(path, line.slice(0, 30));
    await appendFile(path, `${line.slice(30)}\n`);
    await r.until('the call', () => f!.log.items.length === 3);
    expect(f.log.items[2]).toMatchObject({ kind: 'tool', name: 'Bash', input: 'ls -la', status: 'running' });
    await appendFile(path, `${result('t1', 'total 0')}\n`);
    await r.until('the result', () => f!.log.items[2]?.kind === 'tool' && f!.log.items[2].status === 'done');
    expect(f.log.items[2]).toMatchObject({ output: 'total 0', id: f.log.items[2]!.id });
    expect(r.seen.flat().filter((i) => i.kind === 'tool').map((i) => i.kind === 'tool' && i.status)).toEqual(['running', 'done']);
  });

  it('a truncated file and a replaced file are read anew', async () => {
    await writeFile(path, `${user('one')}\n${user('two')}\n`);
    const r = recorder();
    f = await TranscriptFollower.open(path, parseClaudeLine, (s) => s, r.on);
    await truncate(path, 0);
    await appendFile(path, `${user('fresh')}\n`);
    await r.until('a reset', () => r.resets > 0 && f!.log.items.some((i) => i.kind === 'user' && i.text === 'fresh'));
    expect(f.log.items.map((i) => 'text' in i && i.text)).toEqual(['fresh']);
    const next = join(dir.path, 'next.jsonl');
    await writeFile(next, `${user('rotated')}\n`);
    await rename(next, path);
    await r.until('the replaced file', () => f!.log.items.some((i) => i.kind === 'user' && i.text === 'rotated'));
    expect(f.log.items.map((i) => 'text' in i && i.text)).toEqual(['rotated']);
  });

  it('after a replaced file is read anew, lines appended to the new file are read too', async () => {
    await writeFile(path, `${user('one')}\n`);
    const r = recorder();
    f = await TranscriptFollower.open(path, parseClaudeLine, (s) => s, r.on);
    const next = join(dir.path, 'next.jsonl');
    await writeFile(next, `${user('rotated')}\n`);
    await rename(next, path);
    await r.until('the replaced file', () => f!.log.items.some((i) => i.kind === 'user' && i.text === 'rotated'));
    await appendFile(path, `${user('after the rotation')}\n`);
    await r.until('a line appended to the new file', () => f!.log.items.some((i) => i.kind === 'user' && i.text === 'after the rotation'));
  });

  it('lines that land while it opens (after its first read, before its watch) are read: the last of them too', async () => {
    // Lines no parser shows, so the first screen reads the whole 8 MB back: the open takes a while.
    const filler = `${JSON.stringify({ type: 'progress', pad: 'x'.repeat(1000) })}\n`.repeat(8000);
    await writeFile(path, `${user('first')}\n${filler}`);
    const r = recorder();
    let opened = false;
    const opening = TranscriptFollower.open(path, parseClaudeLine, (s) => s, r.on).finally(() => (opened = true));
    // Lines keep landing until the open is over, one every 2 ms; none after it.
    let n = 0;
    while (!opened) {
      appendFileSync(path, `${user(`landed ${n++}`)}\n`);
      await new Promise((ok) => setTimeout(ok, 2));
    }
    f = await opening;
    expect(f.loadedEnd).toBeLessThan(statSync(path).size);
    await r.until(`every line that landed (${n})`, () => f!.log.items.filter((i) => i.kind === 'user' && i.text.startsWith('landed ')).length === n, 5_000);
  });

  it('a big file opens from its end; History reads backwards to the start, in order', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => user(`message ${i} ${'x'.repeat(200)}`, `u${i}`));
    await writeFile(path, `${lines.join('\n')}\n`);
    // The event loop keeps turning while the file is read: reads are asynchronous, a piece at a time.
    let turns = 0;
    let ticking = true;
    const turn = () => {
      turns++;
      if (ticking) setImmediate(turn);
    };
    setImmediate(turn);
    f = await TranscriptFollower.open(path, parseClaudeLine, (s) => s, recorder().on);
    expect(f.atStart).toBe(false);
    expect(f.log.items.length).toBeLessThan(5000);
    const last = f.log.items.at(-1);
    expect(last?.kind === 'user' && last.text.startsWith('message 4999 ')).toBe(true);
    let before = Number(f.log.items[0]!.id);
    while (!f.atStart || f.log.page(before, 100).length > 0) {
      await f.older(before, 100);
      const page = f.log.page(before, 100);
      if (page.length === 0) break;
      before = Number(page[0]!.id);
    }
    expect(f.log.items.map((i) => (i.kind === 'user' ? i.text.split(' ')[1] : ''))).toEqual(lines.map((_, i) => String(i)));
    ticking = false;
    // About 1.5 MB read backwards in 32–64 KiB pieces: the loop turned between them.
    expect(turns).toBeGreaterThan(20);
  });

  it('hostile content: a 10 MB line, control bytes, markup and secrets stay words, cut and masked', async () => {
    const secret = 'sk-ant-api03-' + 'A'.repeat(90);
    await writeFile(path, `${user('<script>alert(1)</script> [x](javascript:alert(1)) \u0000\u001b[31m\u202e')}\n${reply(`key ${secret}`)}\n${reply('y'.repeat(10 * 1024 * 1024))}\n${user('after')}\n`);
    f = await TranscriptFollower.open(path, parseClaudeLine, makeRedactor(true), recorder().on);
    const [a, b, big, after] = f.log.items;
    expect(a).toMatchObject({ kind: 'user', text: '<script>alert(1)</script> [x](javascript:alert(1)) [31m', shortened: true });
    expect(b?.kind === 'markdown' && b.text).not.toContain(secret);
    expect(big).toMatchObject({ kind: 'markdown', shortened: true });
    expect(big?.kind === 'markdown' && big.text.length).toBeLessThanOrEqual(100_001);
    expect(after).toMatchObject({ kind: 'user', text: 'after' });
  });
});
