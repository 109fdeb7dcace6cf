import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DurableState } from '@collie/protocol';
import { expect, test } from 'vitest';
import { startBridge } from '../../bridge/src/bridge';
import type { EventHub } from '../../bridge/src/events/hub';
import { tempDir, testBridgeOptions } from '../src';
import { attachDemoDesk } from '../src/demo-desk';

function until(hub: EventHub, what: string, check: (d: DurableState) => boolean, ms = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (check(hub.durable)) return resolve();
    const timer = setTimeout(() => (off(), reject(new Error(`timed out waiting for ${what}`))), ms);
    const off = hub.subscribe(() => {
      if (check(hub.durable)) (clearTimeout(timer), off(), resolve());
    });
  });
}

test('collie demo attaches the example desk beside its panes: the running bridge picks it up, and it is detached at the end', async () => {
  await using dir = await tempDir('collie-demo-desk-');
  const env = { ...process.env, HOME: dir.path, COLLIE_CONFIG_DIR: join(dir.path, 'config'), COLLIE_STATE_DIR: join(dir.path, 'state'), COLLIE_INSTANCE: '' };
  await using bridge = await startBridge(testBridgeOptions(join(dir.path, 'no-tmux'), join(dir.path, 'bridge-state'), { configDir: env.COLLIE_CONFIG_DIR }));
  const lines: string[] = [];
  const demo = await attachDemoDesk(env, (l) => lines.push(l));
  expect(demo.attached).toBe(true);
  expect(lines.join('\n')).toMatch(/^attached desk \(local\): .*demo-desk\.sock$/m);
  // The bridge reads sources.json again by itself: desk is ready with its samples, one waiting on you.
  await until(bridge.hub, 'desk ready with its samples', (d) => d.agents.get('desk')?.state === 'ready' && d.conversations.size === 2);
  expect(bridge.hub.durable.agents.get('desk')?.runtime).toBe('desk');
  expect([...bridge.hub.durable.conversations.values()].filter((c) => c.questions.length > 0).map((c) => c.title)).toEqual(['Save a note']);
  expect(bridge.hub.durable.agents.get('desk')?.starters.map((s) => s.label)).toEqual(['Write a note', 'Plan my day', 'File a ticket', 'Rename']);
  await demo.stop();
  await until(bridge.hub, 'desk detached', (d) => !d.agents.has('desk'));
  expect(JSON.parse(await readFile(join(env.COLLIE_CONFIG_DIR, 'sources.json'), 'utf8'))).toEqual({ agents: [] });
}, 60_000);

test('a desk left on the same socket by a killed demo is taken over; a desk of your own is left alone', async () => {
  await using dir = await tempDir('collie-demo-desk-');
  const env = { ...process.env, HOME: dir.path, COLLIE_CONFIG_DIR: join(dir.path, 'config'), COLLIE_STATE_DIR: join(dir.path, 'state'), COLLIE_INSTANCE: '' };
  await mkdir(env.COLLIE_CONFIG_DIR, { recursive: true });
  const sources = join(env.COLLIE_CONFIG_DIR, 'sources.json');
  await writeFile(sources, JSON.stringify({ agents: [{ name: 'desk', socket: join(env.COLLIE_STATE_DIR, 'demo-desk.sock') }] }), { mode: 0o600 });
  const left = await attachDemoDesk(env, () => undefined);
  expect(left.attached).toBe(true);
  await left.stop();
  expect(JSON.parse(await readFile(sources, 'utf8'))).toEqual({ agents: [] });

  const own = { name: 'desk', url: 'http://127.0.0.1:9' };
  await writeFile(sources, JSON.stringify({ agents: [own] }), { mode: 0o600 });
  const lines: string[] = [];
  const mine = await attachDemoDesk(env, (l) => lines.push(l));
  expect(mine.attached).toBe(false);
  expect(lines.join('\n')).toMatch(/The durable agent desk is not attached: .*already attached/);
  await mine.stop();
  expect(JSON.parse(await readFile(sources, 'utf8'))).toEqual({ agents: [own] });
}, 60_000);
