import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeCaptureDriver } from '../agents/claude/capture';
import { codexCaptureDriver } from '../agents/codex/capture';
import { geminiCaptureDriver } from '../agents/gemini/capture';
import { ompCaptureDriver } from '../agents/omp/capture';
import { opencodeCaptureDriver } from '../agents/opencode/capture';
import { useAgentsFrom } from '../agents/installed';
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

/**
 * `npm run capture -- <agent> [--from <npm prefix>]`: exit 2 on an unknown agent, 1 when the run
 * fails. With `--from`, the agent's program comes from that prefix (another release installed
 * with `npm install --prefix`) and its screens go to `captures/<version>/`, beside the pinned
 * release's, where the reader tests read them too.
 */
export async function captureMain(argv: readonly string[]): Promise<number> {
  const agent = argv[0] ?? '';
  const driver = Object.hasOwn(DRIVERS, agent) ? DRIVERS[agent] : undefined;
  const at = argv.indexOf('--from');
  const from = at > 0 ? argv[at + 1] : undefined;
  if (!driver || (at > 0 && !from)) {
    console.error(`capture: name an agent: ${Object.keys(DRIVERS).join(', ')} (and --from <npm prefix> for another release)`);
    return 2;
  }
  const captures = join(repoRoot, 'packages', 'bridge', 'src', 'harness', driver.agent, 'captures');
  if (from === undefined) {
    const { names, version } = await runCapture(driver, captures);
    console.log(`capture: ${driver.agent} ${version}: wrote ${names.join(', ')} to ${captures}`);
    return 0;
  }
  useAgentsFrom(from);
  // The release is known once the agent ran: its screens are written aside, then moved.
  const pending = join(captures, `.pending-${process.pid}`);
  try {
    const { names, version } = await runCapture(driver, pending);
    const out = join(captures, version.replace(/[^\w.-]/gu, '_'));
    await rm(out, { recursive: true, force: true });
    await rename(pending, out);
    console.log(`capture: ${driver.agent} ${version} from ${from}: wrote ${names.join(', ')} to ${out}`);
    return 0;
  } finally {
    await rm(pending, { recursive: true, force: true });
  }
}
