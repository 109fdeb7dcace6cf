import { join } from 'node:path';
import { claudeCaptureDriver } from '../agents/claude/capture';
import { repoRoot } from '../artifacts';
import type { CaptureDriver } from './driver';
import { runCapture } from './run';

/** One row per agent with a driver; another agent's driver is one file and one row here. */
const DRIVERS: Record<string, CaptureDriver> = { claude: claudeCaptureDriver };

/** `npm run capture -- <agent>`: exit 2 on an unknown agent, 1 when the run fails. */
export async function captureMain(argv: readonly string[]): Promise<number> {
  const driver = DRIVERS[argv[0] ?? ''];
  if (!driver) {
    console.error(`capture: name an agent: ${Object.keys(DRIVERS).join(', ')}`);
    return 2;
  }
  const out = join(repoRoot, 'packages', 'bridge', 'src', 'harness', driver.agent, 'captures');
  const { names, version } = await runCapture(driver, out);
  console.log(`capture: ${driver.agent} ${version}: wrote ${names.join(', ')} to ${out}`);
  return 0;
}
