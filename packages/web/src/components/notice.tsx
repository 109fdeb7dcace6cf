import type { ReactNode } from 'react';

/** A quiet block of text in place of a list: empty, loading, or unreachable. */
export function Notice({ title, children }: { readonly title: string; readonly children?: ReactNode }) {
  return (
    <div className="notice">
      <p className="notice-title">{title}</p>
      {children ? <p className="notice-body">{children}</p> : null}
    </div>
  );
}
