import { useEffect } from 'react';
import { dashboardHref } from '../lib/routes';

/**
 * Esc goes back to the panes on a desktop (a fine pointer), as a dialog's Esc closes it. Not
 * while typing in a box that holds text (Esc there is the person's), nor while a menu is open.
 */
export function useEscapeBack(): void {
  useEffect(() => {
    if (!window.matchMedia('(pointer: fine)').matches) return;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
      const target = event.target;
      if ((target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement) && target.value !== '') return;
      if (document.querySelector('details[open]')?.contains(target as Node)) return;
      window.location.hash = dashboardHref();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
