import { readFile } from 'node:fs/promises';
import { Harness } from '@collie/protocol';
import { screenCommand } from '../harness/screen-command';

/** `collie screen <file> [--harness h]`: the reading of a saved screen, as one JSON line. */
export async function screen(file: string, harness?: string): Promise<string> {
  let h: Harness | undefined;
  if (harness !== undefined) {
    const parsed = Harness.safeParse(harness);
    if (!parsed.success) throw new Error(`collie screen: unknown harness '${harness}' (one of ${Harness.options.join(', ')})`);
    h = parsed.data;
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new Error(`collie screen: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  return screenCommand(text, h);
}
