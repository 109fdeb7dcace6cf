import { mkdtemp, readdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../http/api-error';
import { UploadStore } from './store';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('the uploads store', () => {
  let state: string;
  beforeEach(async () => {
    state = await mkdtemp(join(tmpdir(), 'collie-uploads-'));
  });
  afterEach(async () => {
    await rm(state, { recursive: true, force: true });
  });

  it('finds an upload by id, and removes it 48 h after it arrived (not before)', async () => {
    let now = Date.now();
    const store = await UploadStore.open(state, () => now);
    const u = await store.save(PNG, 'shot.png');
    const path = await store.pathOf(u.id);
    expect(path).toBe(join(store.dir, `${u.id}-shot.png`));
    now += 47 * 3600_000;
    expect(await store.sweep()).toBe(0);
    const arrived = (await stat(path)).mtimeMs;
    now = arrived + 48 * 3600_000 + 1;
    expect(await store.sweep()).toBe(1);
    await expect(store.pathOf(u.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('never hands out a path outside the uploads dir, even for a planted symlink', async () => {
    const store = await UploadStore.open(state);
    const outside = join(state, 'secret.txt');
    await writeFile(outside, 'secret');
    await symlink(outside, join(store.dir, 'u_00000000000000aa-secret.txt'));
    const err = await store.pathOf('u_00000000000000aa').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe("uploads: 'u_00000000000000aa' is not a file in the uploads dir");
  });

  it('keeps nothing of a refused upload', async () => {
    const store = await UploadStore.open(state);
    await expect(store.save(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0]), 'x.png')).rejects.toMatchObject({ code: 'upload_type' });
    await expect(store.save(PNG, '../x.png')).rejects.toMatchObject({ code: 'bad_name' });
    expect(await readdir(store.dir)).toEqual([]);
  });

  it('sweeps leftovers too: a stale temp file of an interrupted write', async () => {
    const store = await UploadStore.open(state);
    const temp = join(store.dir, '.u_1.png.123.abc.tmp');
    await writeFile(temp, 'x');
    const old = new Date(Date.now() - 49 * 3600_000);
    await utimes(temp, old, old);
    expect(await store.sweep()).toBe(1);
  });
});
