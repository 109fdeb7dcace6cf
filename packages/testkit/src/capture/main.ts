import { join } from 'node:path';
import { claudeCaptureDriver } from '../agents/claude/capture';
import { captureCodexScreens } from '../agents/codex/capture';
import { captureGeminiScreens } from '../agents/gemini/capture';
import { captureOpencodeScreens } from '../agents/opencode/capture';
import { repoRoot } from '../artifacts';
import type { CaptureDriver } from './driver';
import { runCapture } from './run';

/** One row per agent with a driver; another agent's driver is one file and one row here. */
const DRIVERS: Record<string, CaptureDriver> = { claude: claudeCaptureDriver };

/**
 * Agents whose capture is still one function that writes its whole corpus (screens, labels.json
 * and README) into the folder it is given; they are to move behind `CaptureDriver`.
 */
const WHOLE: Record<string, (outDir: string) => Promise<string[]>> = {
  codex: captureCodexScreens,
  gemini: captureGeminiScreens,
  opencode: captureOpencodeScreens,
};

/** `npm run capture -- <agent>`: exit 2 on an unknown agent, 1 when the run fails. */
export async function captureMain(argv: readonly string[]): Promise<number> {
  const agent = argv[0] ?? '';
  const out = join(repoRoot, 'packages', 'bridge', 'src', 'harness', DRIVERS[agent]?.agent ?? agent, 'captures');
  const whole = Object.hasOwn(WHOLE, agent) ? WHOLE[agent] : undefined;
  if (whole) {
    const names = await whole(out);
    console.log(`capture: ${agent}: wrote ${names.join(', ')} to ${out}`);
    return 0;
  }
  const driver = DRIVERS[agent];
  if (!driver) {
    console.error(`capture: name an agent: ${[...Object.keys(DRIVERS), ...Object.keys(WHOLE)].join(', ')}`);
    return 2;
  }
  const { names, version } = await runCapture(driver, out);
  console.log(`capture: ${driver.agent} ${version}: wrote ${names.join(', ')} to ${out}`);
  return 0;
}
