import { useCallback, useState } from 'react';

/**
 * A boolean kept in localStorage under `key`. Storage can be missing or refuse writes
 * (private browsing); the flag then lives for the page's lifetime only.
 */
export function useStoredFlag(key: string, initial: boolean): readonly [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => readFlag(key) ?? initial);
  const update = useCallback(
    (next: boolean) => {
      setValue(next);
      try {
        window.localStorage.setItem(key, next ? '1' : '0');
      } catch {
        // Not persisted; the switch still works for this visit.
      }
    },
    [key],
  );
  return [value, update] as const;
}

function readFlag(key: string): boolean | null {
  try {
    const stored = window.localStorage.getItem(key);
    return stored === '1' ? true : stored === '0' ? false : null;
  } catch {
    return null;
  }
}
