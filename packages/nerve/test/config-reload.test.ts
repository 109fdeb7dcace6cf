/**
 * spec "Configuration": every agent.subagents key takes effect without a restart; a bad edit is
 * answered with the file, the key and what is wrong, and the last good config stays.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '@collie/testkit';
import { startNerve, type Nerve } from '../src/nerve';

let dir: TempDir;
let nerve: Nerve;
const lines: string[] = [];

const config = (subagents: string) => `listen:\n  host: 127.0.0.1\n  port: 0\nagent:\n  subagents:\n${subagents}`;

beforeAll(async () => {
  dir = await tempDir('nerve-reload-');
  writeFileSync(join(dir.path, 'config.yaml'), config('    stop_confirm_seconds: 10\n'));
  nerve = await startNerve({ configFile: join(dir.path, 'config.yaml'), defaultStateDir: join(dir.path, 'state'), log: (l) => lines.push(l) });
});
afterAll(async () => {
  await nerve.close();
  await dir.remove();
});

describe('config.yaml reload', () => {
  it('applies an edit without a restart, also one saved by rename, and keeps the last good config on a bad one', async () => {
    writeFileSync(join(dir.path, 'config.yaml'), config('    stop_confirm_seconds: 42\n    transcript_item_max_bytes: 1024\n'));
    await expect.poll(() => nerve.config().agent.subagents.stop_confirm_seconds, { timeout: 20_000 }).toBe(42);
    expect(nerve.config().agent.subagents.transcript_item_max_bytes).toBe(1024);

    writeFileSync(join(dir.path, 'config.yaml.tmp'), config('    quiet_after_minutes: 3\n'));
    renameSync(join(dir.path, 'config.yaml.tmp'), join(dir.path, 'config.yaml'));
    await expect.poll(() => nerve.config().agent.subagents.quiet_after_minutes, { timeout: 20_000 }).toBe(3);

    writeFileSync(join(dir.path, 'config.yaml'), config('    lost_grace_seconds: soon\n'));
    await expect.poll(() => lines.find((l) => l.includes('config not reloaded')), { timeout: 20_000 }).toContain('agent.subagents.lost_grace_seconds');
    expect(nerve.config().agent.subagents.quiet_after_minutes).toBe(3);
  });
});
