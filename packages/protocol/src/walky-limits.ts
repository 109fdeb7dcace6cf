// Walky talky's limits the schemas (walky.ts) and the zod-free words (walky-words.ts) both use:
// a file of its own, so walky-words.ts may import walky.ts's types and nothing imports back.

/** A message id: `wt_` and 12 letters or digits. */
export const MESSAGE_ID = /^wt_[a-z0-9]{12}$/;

/** At most this many characters in a body, after cleaning; a longer one is refused, never cut. */
export const WALKY_MAX_BODY = 4000;

/** `send` waits this long for a final receipt before it answers with the one it has. */
export const WALKY_WAIT_MS = 15_000;
