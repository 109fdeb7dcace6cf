/**
 * The line under a question's title when the durable agent set an expiry (the page's words):
 * "Expires in 4 min", then "Expires in 40 s" under a minute, then "Expired". Pure: the clock
 * is passed in, so the phone's one-second clock drives it and tests drive it by hand.
 */
export function expiryWords(expiresAt: number | null, now: number): string | null {
  if (expiresAt === null) return null;
  const left = expiresAt - now;
  if (left <= 0) return 'Expired';
  // The seconds left, counted up so the last one reads "1 s"; a minute or more reads the whole
  // minutes left: 61 s is "1 min", 4 min 59 s "4 min", and 59.5 s "1 min" (never "60 s").
  const secs = Math.ceil(left / 1000);
  if (secs < 60) return `Expires in ${secs} s`;
  return `Expires in ${Math.floor(secs / 60)} min`;
}

/** A conversation draws its first 5 questions as cards; a "Show N more" row opens the rest. */
export const CARDS_SHOWN = 5;

export function cardsToShow<T>(questions: readonly T[], all: boolean): { shown: readonly T[]; more: number } {
  if (all || questions.length <= CARDS_SHOWN) return { shown: questions, more: 0 };
  return { shown: questions.slice(0, CARDS_SHOWN), more: questions.length - CARDS_SHOWN };
}
