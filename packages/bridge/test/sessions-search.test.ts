import { describe, expect, it } from 'vitest';
import { SESSION_AGENTS } from '@collie/protocol';
import { startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { listSessions } from './sessions-kit';
import { SessionStores } from './session-stores';

/**
 * The word search of the Sessions page over each agent's own store, in its real format: a
 * session is found by any word of its first message, and by a word of its title where the agent
 * writes one (Claude Code's custom title, OpenCode's title); all words must be found, in any
 * case; a folder filter and a search combine; a session written after the index was built is
 * found too.
 */
describe('session search', () => {
  it('finds each agent’s sessions by words of their first message and title', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    await using home = await tempDir('collie-search-home-');
    const stores = new SessionStores(home.path);
    const at = Date.now() - 3_600_000;
    const ids = new Map<string, string>();
    for (const [i, agent] of SESSION_AGENTS.entries()) {
      ids.set(`${agent} heron`, stores.write({ agent, folder: '/home/u/code/pond', first: `Count the ${agent}heron birds on the lake`, ...(agent === 'claude' || agent === 'opencode' ? { title: `Marsh survey ${agent}title` } : {}), at: at + i * 1000 }));
      ids.set(`${agent} otter`, stores.write({ agent, folder: '/home/u/code/river', first: `Feed the ${agent}otter before noon`, at: at + i * 1000 + 500 }));
    }
    stores.close();
    await using bridge = await bridgeFor(tmux.tmpDir, state.path, { sessionRoots: stores.roots });

    const found = async (q: string, extra = '') => (await listSessions(bridge, `?q=${encodeURIComponent(q)}${extra}`)).sessions.map((s) => `${s.agent} ${s.id}`);
    for (const agent of SESSION_AGENTS) {
      // A word of the first message (OpenCode's, from its first text part).
      expect(await found(`${agent}HERON`)).toEqual([`${agent} ${ids.get(`${agent} heron`)}`]);
      expect(await found(`${agent}otter noon`)).toEqual([`${agent} ${ids.get(`${agent} otter`)}`]);
      expect(await found(`${agent}otter heron`)).toEqual([]);
    }
    for (const agent of ['claude', 'opencode']) expect(await found(`survey ${agent}title`)).toEqual([`${agent} ${ids.get(`${agent} heron`)}`]);
    // Claude Code's title is what the list shows; its first message is still searched.
    const claude = (await listSessions(bridge, '?q=claudeheron')).sessions[0]!;
    expect(claude.title).toBe('Marsh survey claudetitle');
    // Every agent's heron session: newest first, and the folder filter with the search.
    expect(await found('heron')).toEqual(SESSION_AGENTS.map((a) => `${a} ${ids.get(`${a} heron`)}`).reverse());
    expect(await found('lake', '&folder=/home/u/code/river')).toEqual([]);
    expect((await found('lake', '&folder=/home/u/code/pond')).length).toBe(5);
    // Paged: two at a time, each once.
    const first = await listSessions(bridge, '?q=heron&limit=2');
    const second = await listSessions(bridge, `?q=heron&limit=2&cursor=${first.next}`);
    const third = await listSessions(bridge, `?q=heron&limit=2&cursor=${second.next}`);
    expect([...first.sessions, ...second.sessions, ...third.sessions].map((s) => s.agent)).toEqual([...SESSION_AGENTS].reverse());
    expect(third.next).toBeNull();

    // Written after the index was built: found once its store's watch has it.
    const later = new SessionStores(home.path);
    const id = later.write({ agent: 'pi', folder: '/home/u/code/pond', first: 'Ring the kingfisher bell', at: Date.now() });
    later.close();
    await until(bridge.hub, 'the new pi session', (_h, e) => e?.type === 'session.changed' && e.session.id === id, 15_000);
    expect(await found('KINGFISHER bell')).toEqual([`pi ${id}`]);
  });
});
