import { useEffect, useState } from 'react';

/** Copies `text` to the clipboard; drawn only where the browser offers one (https or localhost). */
export function CopyButton({ text, label }: { readonly text: string; readonly label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 1500);
    return () => window.clearTimeout(timer);
  }, [copied]);
  if (typeof navigator.clipboard?.writeText !== 'function') return null;
  const copy = (): void => {
    navigator.clipboard.writeText(text).then(
      () => setCopied(true),
      (error: unknown) => console.warn('copy: the clipboard refused', error),
    );
  };
  return (
    <button type="button" className="copy" onClick={copy} aria-label={label}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
