import { z } from 'zod';
import { RepoPath } from './changes';

/* ── Files: browse the pane's repository (or folder) read-only ── */

/** A text file over this is said, not shown. */
export const MAX_FILE_VIEW_BYTES = 1024 * 1024;
/** An image over this is said, not shown. */
export const MAX_IMAGE_VIEW_BYTES = 5 * 1024 * 1024;
/** At most this many entries of one folder are listed (then `truncated`). */
export const MAX_DIR_ENTRIES = 2000;

/** A path from the phone inside the pane's root: `''` is the root itself; else as `RepoPath`. */
export const FilePath = z.union([z.literal(''), RepoPath]);

export const FileEntry = z.object({
  name: z.string(),
  kind: z.enum(['dir', 'file', 'link']),
  /** Bytes for a file; null for a folder or a link. */
  size: z.number().int().min(0).nullable(),
  /** Git ignores it (listed only with `ignored=1`). */
  ignored: z.boolean(),
});
export type FileEntry = z.infer<typeof FileEntry>;

/** `GET /api/panes/:id/files?path=P&ignored=1`: one folder of the pane's root, folders first. */
export const FilesAnswer = z.object({
  /** The absolute root: the repository's top folder, or the pane's folder outside a repository. */
  root: z.string(),
  /** The pane's folder, relative to the root (`''` when it is the root): where the browser opens. */
  start: z.string(),
  path: z.string(),
  entries: z.array(FileEntry),
  /** How many git-ignored entries were left out. */
  hidden: z.number().int().min(0),
  truncated: z.boolean(),
});
export type FilesAnswer = z.infer<typeof FilesAnswer>;

/** `GET /api/panes/:id/file?path=P`: one file, read-only. Binary and huge files are said, not shown. */
export const FileAnswer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), path: z.string(), size: z.number().int(), text: z.string() }),
  z.object({ kind: z.literal('image'), path: z.string(), size: z.number().int(), type: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']), base64: z.string() }),
  z.object({ kind: z.literal('binary'), path: z.string(), size: z.number().int() }),
  z.object({ kind: z.literal('too_large'), path: z.string(), size: z.number().int(), limit: z.number().int() }),
]);
export type FileAnswer = z.infer<typeof FileAnswer>;
