import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startTmux } from '../tmux';
import type { CaptureDriver, CaptureLabel } from './driver';

/**
 * Run `driver` and write its screens (`capture-pane -e -p`) into `outDir` with their labels merged
 * into `labels.json` (labels of screens it did not take are kept), and its README when it gives one. Returns the names written.
 */
export async function runCapture(driver: CaptureDriver, outDir: string): Promise<{ names: string[]; version: string }> {
  await mkdir(outDir, { recursive: true });
  await using tmux = await startTmux();
  const labels: Record<string, CaptureLabel & { harness: string }> = {};
  const { version, readme } = await driver.capture({
    tmux,
    async keep(paneId, name, label) {
      await writeFile(join(outDir, `${name}.txt`), await tmux.capture(paneId, { escapes: true }));
      labels[name] = { harness: driver.agent, ...label };
    },
  });
  const file = join(outDir, 'labels.json');
  const old = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as Record<string, unknown>;
  const merged = { ...old, ...labels };
  const sorted = Object.fromEntries(Object.keys(merged).sort().map((k) => [k, merged[k]]));
  await writeFile(file, `${JSON.stringify(sorted, null, 1)}\n`);
  if (readme) await writeFile(join(outDir, 'README.md'), [...readme, ''].join('\n'));
  return { names: Object.keys(labels), version };
}
