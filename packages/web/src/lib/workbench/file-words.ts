/** A byte count in words: `512 B`, `4.2 KB`, `1.5 MB`. Pure. */
export function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The links above a folder or file: the root by its name, then each folder down to `path`. Pure. */
export function crumbs(root: string, path: string): { readonly name: string; readonly path: string }[] {
  const out = [{ name: root.split('/').at(-1) || root, path: '' }];
  const parts = path === '' ? [] : path.split('/');
  parts.forEach((name, i) => out.push({ name, path: parts.slice(0, i + 1).join('/') }));
  return out;
}

/** At most this many lines of a text file are drawn (a 1 MB file can hold 100,000). */
export const MAX_SHOWN_LINES = 5000;
