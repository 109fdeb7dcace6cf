/** How the scripted model servers pace what they stream: word pieces, JSON slices, pauses with keep-alives. */

/** Splits text at word ends into pieces of about `size` characters, as a model streams it ('' gives none). */
export function wordPieces(text: string, size = 16): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > size) {
    const cut = rest.indexOf(' ', size);
    if (cut < 0) break;
    out.push(rest.slice(0, cut + 1));
    rest = rest.slice(cut + 1);
  }
  if (rest !== '') out.push(rest);
  return out;
}

/** Cuts (partial JSON) text anywhere into `size`-character slices, as streamed tool arguments may be. */
export function slices(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Waits `ms`, calling `tick` at least every `everyMs` (a keep-alive on the stream), until done or aborted. */
export async function pause(ms: number, signal: AbortSignal, tick: () => void, everyMs: number): Promise<void> {
  const end = Date.now() + ms;
  while (!signal.aborted) {
    const left = end - Date.now();
    if (left <= 0) return;
    await sleep(Math.min(left, everyMs), signal);
    if (Date.now() < end && !signal.aborted) tick();
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
