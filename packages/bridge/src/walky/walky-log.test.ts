import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WalkyMessage } from '@collie/protocol';
import { tempDir } from '@collie/testkit';
import { LOG_KEEP_MS, LOG_MAX_LINES, SEEN_KEEP_MS, WalkyLog } from './walky-log';

const msg = (n: number, at: number): WalkyMessage => ({
  v: 1,
  id: `wt_${String(n).padStart(12, '0')}`,
  at,
  from: { kind: 'agent', address: 'local/%1#aaaa', paneId: 's:%1', token: 'aaaa', harness: 'claude', label: 'x' },
  to: { paneId: 's:%2', pane: 'local/%2', address: 'local/%2#bbbb', token: 'bbbb', harness: 'claude', label: 'y' },
  asked: 'local/%2#bbbb',
  replyTo: null,
  body: `body ${n}`,
  state: 'accepted',
  reason: null,
  verified: 'local',
  read: false,
  updatedAt: at,
});

describe('the walky log on disk, with a clock the test sets', () => {
  it('keeps at most 2,000 lines and 7 days; seen ids stay a day after the log drops them', async () => {
    await using dir = await tempDir('collie-walky-log');
    let now = 1_000_000_000_000;
    const log = await WalkyLog.open(join(dir.path, 'walky'), () => now);
    for (let i = 0; i < LOG_MAX_LINES + 5; i++) await log.put(msg(i, now + i));
    const lines = (await readFile(join(dir.path, 'walky', 'log.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(LOG_MAX_LINES);
    expect(log.get(msg(0, 0).id)).toBeUndefined();
    expect(log.seenEntry(msg(0, 0).id)?.state).toBe('accepted');
    expect(log.unread('s:%2', 'bbbb')).toBe(LOG_MAX_LINES);

    now += LOG_KEEP_MS + 10_000; // a week later, reopened (as after a restart): every line is too old
    await log.close();
    const later = await WalkyLog.open(join(dir.path, 'walky'), () => now);
    expect(later.all()).toEqual([]);
    expect(later.seenEntry(msg(3, 0).id)).toBeUndefined();
    await later.close();
  }, 120_000);

  it('a pane that lost its token loses its inbox; refusals are counted without body or sender', async () => {
    await using dir = await tempDir('collie-walky-log');
    let now = 5_000;
    const log = await WalkyLog.open(join(dir.path, 'walky'), () => now);
    await log.put(msg(1, now));
    await log.refused('pane replaced');
    await log.refused('pane replaced');
    await log.dropInbox('s:%2', 'bbbb');
    expect(log.all()).toEqual([]);
    expect(log.seenEntry(msg(1, 0).id)).toBeDefined();
    now += SEEN_KEEP_MS;
    expect(log.seenEntry(msg(1, 0).id)).toBeUndefined();
    const counts = JSON.parse(await readFile(join(dir.path, 'walky', 'refusals.json'), 'utf8')) as { reasons: Record<string, { count: number }> };
    expect(counts.reasons['pane replaced']?.count).toBe(2);
    await log.close();
  });
});
