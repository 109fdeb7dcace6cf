import { BUTTON_ICONS, type ButtonIcon } from '@collie/protocol';

/** The 12 icons a durable agent's belt button may name, as strokes in a 24-unit box. */
const PATHS: Record<ButtonIcon, string> = {
  play: 'M8 5v14l11-7z',
  pause: 'M7 5h3v14H7zM14 5h3v14h-3z',
  check: 'M5 12l5 5L20 7',
  x: 'M6 6l12 12M18 6L6 18',
  refresh: 'M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7',
  archive: 'M3 4h18v4H3zM5 8v12h14V8M10 12h4',
  flag: 'M5 21V4h12l-2 4 2 4H5',
  star: 'M12 3l2.9 5.9 6.5.9-4.7 4.6 1.1 6.5L12 17.8l-5.8 3.1 1.1-6.5-4.7-4.6 6.5-.9z',
  send: 'M3 11l18-8-8 18-2-8z',
  note: 'M5 3h10l4 4v14H5zM9 12h6M9 16h6',
  search: 'M11 4a7 7 0 1 0 0 14a7 7 0 1 0 0-14zM21 21l-5-5',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
};

const known = (name: string): name is ButtonIcon => (BUTTON_ICONS as readonly string[]).includes(name);

/** The icon by name; any other name draws no icon. */
export function BeltIcon({ name }: { readonly name: string | null }) {
  if (name === null || !known(name)) return null;
  return (
    <svg className="belt-icon" data-icon={name} viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth={name === 'more' ? 3 : 2} strokeLinecap="round" strokeLinejoin="round">
      <path d={PATHS[name]} />
    </svg>
  );
}
