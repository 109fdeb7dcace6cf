import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, readdir, realpath, rm, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { MAX_UPLOAD_BYTES, UPLOAD_TTL_MS, type Upload, type UploadId, type UploadType } from '@collie/protocol';
import { writeFileAtomic } from '../../config';
import { ApiError } from '../../http/api-error';
import { checkUploadName } from './name';
import { sniffType } from './sniff';

/** `<id>-<name>`: the id first, so a lookup by id is a prefix match in one directory. */
const FILE = /^(u_[0-9a-f]{16})-([A-Za-z0-9._-]+)$/;

/**
 * Files the phone attached to a message: `<state>/uploads/` (0700), one file per upload
 * (0600, written atomically) named `<id>-<sanitised name>`, removed 48 h after it arrived.
 * The directory is the only place an attachment's path may point into: `pathOf` resolves
 * symlinks and refuses anything that ends up elsewhere.
 */
export class UploadStore {
  private constructor(
    readonly dir: string,
    private readonly now: () => number,
  ) {}

  static async open(stateDir: string, now: () => number = Date.now): Promise<UploadStore> {
    const dir = join(stateDir, 'uploads');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await chmod(dir, 0o700);
    // The real path: the state dir may sit under a symlink (/tmp on some systems).
    return new UploadStore(await realpath(dir), now);
  }

  /** Check the bytes and the name, store the file, and say what was stored. */
  async save(bytes: Uint8Array, rawName: string): Promise<Upload> {
    if (bytes.length === 0) throw new ApiError('bad_request', 'uploads: the file is empty');
    if (bytes.length > MAX_UPLOAD_BYTES) throw tooLarge(bytes.length);
    const type = sniffType(bytes);
    if (!type) throw new ApiError('upload_type', 'uploads: the bytes are not an image (PNG, JPEG, GIF, WebP), a PDF or UTF-8 text');
    const name = checkUploadName(rawName, type);
    if (!name.ok) throw new ApiError('bad_name', `uploads: ${name.reason}`);
    const id: UploadId = `u_${randomBytes(8).toString('hex')}`;
    await writeFileAtomic(join(this.dir, `${id}-${name.name}`), bytes, 0o600);
    return this.describe(id, name.name, type, bytes.length, this.now());
  }

  /** The absolute path of an upload, checked to be a regular file inside the uploads dir; else a `not_found` error. */
  async pathOf(id: UploadId): Promise<string> {
    const entry = (await readdir(this.dir)).find((f) => FILE.exec(f)?.[1] === id);
    if (!entry) throw new ApiError('not_found', `uploads: no upload '${id}' (removed after 48 h, or never stored)`);
    const path = await realpath(join(this.dir, entry));
    const info = await stat(path);
    if (!path.startsWith(this.dir + sep) || !info.isFile()) throw new ApiError('not_found', `uploads: '${id}' is not a file in the uploads dir`);
    return path;
  }

  /** An upload's bytes and their type (read from the bytes, as when it was stored), found as `pathOf` finds it. */
  async read(id: UploadId): Promise<{ bytes: Buffer; type: UploadType }> {
    const bytes = await readFile(await this.pathOf(id));
    const type = sniffType(bytes);
    if (!type) throw new ApiError('not_found', `uploads: '${id}' is no longer a file the bridge stores`);
    return { bytes, type };
  }

  /** Remove uploads older than 48 h (and leftovers of interrupted writes); returns how many went. */
  async sweep(): Promise<number> {
    let removed = 0;
    for (const f of await readdir(this.dir)) {
      const path = join(this.dir, f);
      const info = await stat(path).catch(() => null);
      if (info && this.now() - info.mtimeMs > UPLOAD_TTL_MS) {
        await rm(path, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }

  private describe(id: UploadId, name: string, type: UploadType, size: number, at: number): Upload {
    return { id, name, type, size, expiresAt: new Date(at + UPLOAD_TTL_MS).toISOString() };
  }
}

export function tooLarge(size: number | null): ApiError {
  const mb = MAX_UPLOAD_BYTES / (1024 * 1024);
  return new ApiError('upload_too_large', `uploads: the file is over ${mb} MB${size !== null ? ` (${(size / (1024 * 1024)).toFixed(1)} MB)` : ''}`);
}
