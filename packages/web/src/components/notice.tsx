import type { ReactNode } from 'react';

/**
 * A quiet block of text in place of a list: empty, loading, or unreachable. `caution`: a box in
 * the warning colours that a screen reader announces (a refusal the person must act on).
 */
export function Notice({ title, children, caution = false }: { readonly title: string; readonly children?: ReactNode; readonly caution?: boolean }) {
  return (
    <div className={caution ? 'notice notice-caution' : 'notice'} role={caution ? 'alert' : undefined}>
      <p className="notice-title">{title}</p>
      {children ? <p className="notice-body">{children}</p> : null}
    </div>
  );
}
