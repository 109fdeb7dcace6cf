import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '@collie/testkit';
import { KEEP_RETRY_MS } from '../config/until-written';
import { PushDecider } from './pushes';

const keysIn = async (file: string) => (JSON.parse(await readFile(file, 'utf8')) as { keys: string[] }).keys;

/**
 * A push goes out only once its ask is on disk as pushed: the soak killed a bridge with -9 a few
 * seconds after it pushed an ask whose record was still being written, and the bridge that came
 * back pushed the same ask again.
 */
describe('the once-only record before the push', () => {
  it('flush resolves only once every key decided so far is on disk, in the order asked', async () => {
    await using dir = await tempDir('collie-pushed');
    const file = join(dir.path, 'pushed.json');
    const d = await PushDecider.openFile(file, 'm');
    const order: string[] = [];
    const seenAt: string[][] = [];
    expect(d.once('claude', 'ask-1', 'p1', 0)).not.toBeNull();
    const first = d.flush().then(async () => (order.push('first'), seenAt.push(await keysIn(file))));
    expect(d.once('claude', 'ask-2', 'p1', 1)).not.toBeNull();
    const second = d.flush().then(async () => (order.push('second'), seenAt.push(await keysIn(file))));
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    expect(seenAt[0]).toContain(JSON.stringify(['m', 'claude', 'ask-1']));
    expect(seenAt[1]).toContain(JSON.stringify(['m', 'claude', 'ask-2']));
    // Nothing new: at once.
    await d.flush();
    await d.close();
  });

  it('a write that fails holds what waits for it, and is made again until it is on disk', async () => {
    await using dir = await tempDir('collie-pushed');
    // The folder is a file for now: every write fails, as on a full disk.
    const folder = join(dir.path, 'push');
    await writeFile(folder, 'not a folder');
    const file = join(folder, 'pushed.json');
    const d = await PushDecider.openFile(file, 'm');
    expect(d.once('claude', 'ask-1', 'p1', 0)).not.toBeNull();
    let recorded = false;
    const flushed = d.flush().then(() => (recorded = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(recorded).toBe(false);
    await rm(folder);
    await mkdir(folder);
    await flushed;
    expect(await keysIn(file)).toEqual([JSON.stringify(['m', 'claude', 'ask-1'])]);
    // Opened again (a bridge started after a kill -9), the ask is known: no second push.
    expect((await PushDecider.openFile(file, 'm')).once('claude', 'ask-1', 'p1', 5)).toBeNull();
    await d.close();
  }, KEEP_RETRY_MS * 3);

  it('close lets go of what waits on a write that cannot be made', async () => {
    await using dir = await tempDir('collie-pushed');
    const folder = join(dir.path, 'push');
    await writeFile(folder, 'not a folder');
    const d = await PushDecider.openFile(join(folder, 'pushed.json'), 'm');
    d.once('claude', 'ask-1', 'p1', 0);
    const waiting = d.flush();
    await d.close();
    await waiting;
  });
});
