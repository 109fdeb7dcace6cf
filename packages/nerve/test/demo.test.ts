/** `collie demo`'s Nerve: started against its scripted API, it shows a live roster of three. */
import { describe, expect, it } from 'vitest';
import { tempDir } from '@collie/testkit';
import { startDemoNerve } from '../../testkit/src/demo-nerve';

describe('the demo nerve', () => {
  it('starts two background agents and a shell that stay live', async () => {
    await using dir = await tempDir('nerve-demo-');
    const demo = await startDemoNerve(dir.path);
    try {
      const s = demo.nerve.gateway.sessions.get(demo.sessionId)!;
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`roster: ${JSON.stringify(s.roster.list().map((r) => [r.name, r.status]))}`)), 90_000);
        const off = demo.nerve.gateway.subscribe(() => {
          if (s.roster.live().filter((r) => r.status === 'running').length === 3 && !s.isRunning) {
            clearTimeout(t);
            off();
            resolve();
          }
        });
      });
      expect(s.roster.list().map((r) => [r.kind, r.name]).sort()).toEqual([['agent', 'Read the docs'], ['agent', 'Survey the tests'], ['shell', 'Watch the build']]);
      expect(demo.nerve.durable).toMatch(/nerve\.sock$/);
      const res = await fetch(`${demo.nerve.url}/api/sessions/${demo.sessionId}`, { headers: { authorization: `Bearer ${demo.nerve.token}` } });
      expect(await res.json()).toMatchObject({ is_running: false, has_background_tasks: true, background_count: 3 });
    } finally {
      await demo.stop();
    }
  });
});
