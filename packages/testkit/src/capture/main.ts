import { join } from 'node:path';
import { claudeCaptureDriver } from '../agents/claude/capture';
import { codexCaptureDriver } from '../agents/codex/capture';
import { geminiCaptureDriver } from '../agents/gemini/capture';
import { ompCaptureDriver } from '../agents/omp/capture';
import { opencodeCaptureDriver } from '../agents/opencode/capture';
import { piCaptureDriver } from '../agents/pi/capture';
import { repoRoot } from '../artifacts';
import type { CaptureDriver } from './driver';
import { runCapture } from './run';

/** One row per agent; another agent's driver is one file and one row here. */
const DRIVERS: Record<string, CaptureDriver> = {
  claude: claudeCaptureDriver,
  codex: codexCaptureDriver,
  gemini: geminiCaptureDriver,
  omp: ompCaptureDriver,
  opencode: opencodeCaptureDriver,
  pi: piCaptureDriver,
};

/** `npm run capture -- <agent>`: exit 2 on an unknown agent, 1 when the run fails. */
export async function captureMain(argv: readonly string[]): Promise<number> {
  const agent = argv[0] ?? '';
  const driver = Object.hasOwn(DRIVERS, agent) ? DRIVERS[agent] : undefined;
  if (!driver) {
    console.error(`capture: name an agent: ${Object.keys(DRIVERS).join(', ')}`);
    return 2;
  }
  const out = join(repoRoot, 'packages', 'bridge', 'src', 'harness', driver.agent, 'captures');
  const { names, version } = await runCapture(driver, out);
  console.log(`capture: ${driver.agent} ${version}: wrote ${names.join(', ')} to ${out}`);
  return 0;
}
