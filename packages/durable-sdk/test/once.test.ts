import { appendFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DurableAgent } from '../src/index';
import { CUT_SHORT, Once } from '../src/once';

function tempDir(prefix: string): { path: string; [Symbol.dispose](): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, [Symbol.dispose]: () => rmSync(path, { recursive: true, force: true }) };
}

/** Request ids that outlive the process: a second agent on the same file runs no id twice. */
describe('request ids kept in a file', () => {
  it('a retry after a restart gets the first result and runs nothing', async () => {
    using dir = tempDir('collie-once-');
    const file = join(dir.path, 'agent.requests');
    const said: string[] = [];
    const make = () => {
      const agent = new DurableAgent({ runtime: 'test', requestLog: file, onMessage: (_c, text) => void said.push(text) });
      return { agent, c: agent.open({ id: 'c1', title: 'T' }) };
    };
    const first = make();
    expect((await first.agent.call('/message', { requestId: 'm1', conversationId: 'c1', text: 'hi', steer: false })).outcome).toBe('taken');
    expect(said).toEqual(['hi']);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = make(); // the process started again on the same file
    expect(await second.agent.call('/message', { requestId: 'm1', conversationId: 'c1', text: 'hi', steer: false })).toMatchObject({ outcome: 'taken' });
    expect(said).toEqual(['hi']);
    expect((await second.agent.call('/message', { requestId: 'm2', conversationId: 'c1', text: 'again', steer: false })).outcome).toBe('taken');
    expect(said).toEqual(['hi', 'again']);
    // Without the file, the same id runs in a new process: the file is what makes it once.
    const bare = new DurableAgent({ runtime: 'test', onMessage: (_c, text) => void said.push(text) });
    bare.open({ id: 'c1' });
    await bare.call('/message', { requestId: 'm1', conversationId: 'c1', text: 'hi', steer: false });
    expect(said).toEqual(['hi', 'again', 'hi']);
  });

  it('an id that started and never finished is not run again; a torn or foreign line is skipped', async () => {
    using dir = tempDir('collie-once-');
    const file = join(dir.path, 'agent.requests');
    appendFileSync(file, '{"id":"half"}\n{"id":"done","result":{"outcome":"decided","reason":null,"conversationId":null}}\n{"id":"bad","result":{"outcome":"nope"}}\n[1,2]\n{"id":"torn","res');
    const once = new Once(10_000, file);
    let ran = 0;
    const act = () => {
      ran++;
      return Promise.resolve({ outcome: 'taken' as const, reason: null, conversationId: null });
    };
    expect(await once.run('half', act)).toEqual(CUT_SHORT);
    expect(await once.run('done', act)).toMatchObject({ outcome: 'decided' });
    expect(await once.run('bad', act)).toEqual(CUT_SHORT);
    expect(ran).toBe(0);
    expect((await once.run('torn', act)).outcome).toBe('taken');
    expect(ran).toBe(1);
    // And a third process sees all of them, the last one with its result.
    const again = new Once(10_000, file);
    expect((await again.run('torn', act)).outcome).toBe('taken');
    expect(ran).toBe(1);
  });

  it('keeps at most `keep` ids, on disk too', async () => {
    using dir = tempDir('collie-once-');
    const file = join(dir.path, 'agent.requests');
    const once = new Once(3, file);
    for (const id of ['a', 'b', 'c', 'd', 'e']) await once.run(id, () => Promise.resolve({ outcome: 'taken', reason: null, conversationId: null }));
    let ran = 0;
    const later = new Once(3, file);
    await later.run('a', () => (ran++, Promise.resolve({ outcome: 'taken', reason: null, conversationId: null })));
    await later.run('e', () => (ran++, Promise.resolve({ outcome: 'taken', reason: null, conversationId: null })));
    expect(ran).toBe(1);
  });
});
