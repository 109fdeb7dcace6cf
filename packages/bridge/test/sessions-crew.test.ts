import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionChat, SessionResumed, SessionSummary, SessionsPage } from '@collie/protocol';
import { crewBridge, crewCli, freePort, startTmux, tempDir } from '@collie/testkit';
import { joinMembers } from './crew-join';
import { until } from './harness';
import { repoFolder } from './sessions-kit';
import { SessionStores } from './session-stores';

type Lead = Awaited<ReturnType<typeof crewBridge>>;
async function get<T>(b: Lead, path: string, init: RequestInit = {}): Promise<{ status: number; json: T }> {
  const res = await fetch(`${b.url}${path}`, { ...init, headers: { ...b.device.headers, ...(init.body ? { 'content-type': 'application/json' } : {}) } });
  return { status: res.status, json: (await res.json()) as T };
}
const key = (s: Pick<SessionSummary, 'machine' | 'agent' | 'id'>) => `${s.machine} ${s.agent} ${s.id}`;

/**
 * The Sessions page of a crew's lead: two real bridges (a lead and a member, each with its own
 * tmux server and agents' stores in their real formats) joined through the real CLI. The lead
 * lists both machines' sessions newest first, each naming its machine; filters (machine, agent,
 * folder, words) and paging work across machines; a member's session is read and resumed through
 * the crew link, and the resumed pane runs on the member and shows on the lead; a member that is
 * gone is named in `away` while the lead's own sessions still list.
 */
describe('sessions in a crew', () => {
  it('the lead lists, reads and resumes every machine’s sessions; an away member is said', async () => {
    await using tmuxL = await startTmux();
    await using tmuxM = await startTmux();
    await tmuxL.newSession('main', { cmd: 'cat' });
    await tmuxM.newSession('main', { cmd: 'cat' });
    await using dir = await tempDir('collie-sessions-crew-');
    await using folderL = await repoFolder('collie-crew-lead-work-');
    await using folderM = await repoFolder('collie-crew-member-work-');
    const [sL, sM, homeL, homeM, configM] = ['lead', 'alpha', 'home-lead', 'home-alpha', 'config-alpha'].map((n) => join(dir.path, n)) as [string, string, string, string, string];
    const storesL = new SessionStores(homeL);
    const storesM = new SessionStores(homeM);
    const t0 = Date.now() - 3_600_000;
    // Interleaved in time: the merged list alternates machines.
    const made: { machine: string; agent: SessionSummary['agent']; id: string; at: number; folder: string }[] = [];
    const plan = [
      ['bluefin', 'claude', 'lead claude heron'],
      ['alpha', 'pi', 'member pi heron'],
      ['bluefin', 'codex', 'lead codex otter'],
      ['alpha', 'gemini', 'member gemini otter'],
      ['bluefin', 'opencode', 'lead opencode heron'],
      ['alpha', 'claude', 'member claude otter'],
      ['alpha', 'codex', 'member codex heron'],
    ] as const;
    for (const [i, [machine, agent, first]] of plan.entries()) {
      const folder = machine === 'bluefin' ? folderL.path : folderM.path;
      const at = t0 + i * 60_000;
      made.push({ machine, agent, at, folder, id: (machine === 'bluefin' ? storesL : storesM).write({ agent, folder, first, at }) });
    }
    storesL.close();
    storesM.close();
    // The member resumes with a saved launcher that shows the resume flags it was given, then waits.
    await mkdir(configM, { recursive: true });
    await writeFile(join(configM, 'launchers.json'), JSON.stringify({ launchers: [{ name: 'pi here', command: ['bash', '-c', 'echo "resumed in $PWD with: $*"; exec cat', 'pi'] }] }));

    await using lead = await crewBridge(tmuxL.tmpDir, sL, 'bluefin', { sessionRoots: storesL.roots });
    const member = await crewBridge(tmuxM.tmpDir, sM, 'alpha', { sessionRoots: storesM.roots, configDir: configM });
    let memberUp = true;
    try {
      const created = await crewCli(sL, ['create', '--name', 'bluefin', '--listen', `127.0.0.1:${await freePort()}`]);
      expect(created.code, created.stderr).toBe(0);
      await lead.crew.reload();
      await joinMembers(sL, [['alpha', sM, member, `127.0.0.1:${await freePort()}`, null]]);
      await until(lead.hub, 'the member connected', () => lead.crew.connected().includes('alpha'), 30_000);

      // Every machine's sessions, newest first, each naming its machine.
      const expected = [...made].sort((a, b) => b.at - a.at).map((m) => `${m.machine} ${m.agent} ${m.id}`);
      const all = await get<SessionsPage>(lead, '/api/sessions');
      expect(all.status).toBe(200);
      expect(all.json.sessions.map(key)).toEqual(expected);
      expect(all.json.away).toEqual([]);
      expect(all.json.folders).toEqual(expect.arrayContaining([folderL.path, folderM.path]));
      // Paged two at a time across machines: each once, in order.
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { json: SessionsPage } = await get<SessionsPage>(lead, `/api/sessions?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        paged.push(...page.json.sessions.map(key));
        cursor = page.json.next;
      } while (cursor);
      expect(paged).toEqual(expected);
      // Filters across machines.
      const only = (f: (m: (typeof made)[number]) => boolean) => expected.filter((k) => made.some((m) => f(m) && k === `${m.machine} ${m.agent} ${m.id}`));
      expect((await get<SessionsPage>(lead, '/api/sessions?machine=alpha')).json.sessions.map(key)).toEqual(only((m) => m.machine === 'alpha'));
      expect((await get<SessionsPage>(lead, '/api/sessions?machine=bluefin')).json.sessions.map(key)).toEqual(only((m) => m.machine === 'bluefin'));
      expect((await get<SessionsPage>(lead, '/api/sessions?agent=claude')).json.sessions.map(key)).toEqual(only((m) => m.agent === 'claude'));
      expect((await get<SessionsPage>(lead, `/api/sessions?folder=${encodeURIComponent(folderM.path)}`)).json.sessions.map(key)).toEqual(only((m) => m.folder === folderM.path));
      expect((await get<SessionsPage>(lead, '/api/sessions?q=heron&limit=1')).json.sessions.map(key)).toEqual([expected.find((k) => k.startsWith('alpha codex'))]);
      expect((await get<SessionsPage>(lead, '/api/sessions?q=member%20otter')).json.sessions.map(key)).toEqual(only((m) => m.machine === 'alpha' && (m.agent === 'gemini' || m.agent === 'claude')));
      expect((await get(lead, '/api/sessions?machine=nowhere')).status).toBe(404);

      // A session written on the member after the page was read: the lead is told, naming the member.
      const later = new SessionStores(homeM);
      const laterId = later.write({ agent: 'claude', folder: folderM.path, first: 'member claude kingfisher', at: Date.now() });
      later.close();
      await until(lead.hub, 'the member’s new session on the lead', (_h, e) => e?.type === 'session.changed' && e.session.id === laterId && e.session.machine === 'alpha', 15_000);
      expect((await get<SessionsPage>(lead, '/api/sessions?q=kingfisher')).json.sessions.map(key)).toEqual([`alpha claude ${laterId}`]);

      // A member's session read on the lead, through the crew link.
      const pi = made.find((m) => m.machine === 'alpha' && m.agent === 'pi')!;
      const chat = await get<SessionChat>(lead, `/api/sessions/pi/${pi.id}?machine=alpha`);
      expect(chat.status).toBe(200);
      expect(chat.json.session).toMatchObject({ agent: 'pi', id: pi.id, folder: folderM.path, machine: 'alpha' });
      expect(chat.json.items.map((i) => ('text' in i ? i.text : ''))).toEqual(expect.arrayContaining(['member pi heron']));
      // Not on the lead itself.
      expect((await get(lead, `/api/sessions/pi/${pi.id}`)).status).toBe(404);

      // Resumed on the member: the window opens there, in the session's folder, and shows on the lead.
      const resumed = await get<SessionResumed>(lead, `/api/sessions/pi/${pi.id}/resume?machine=alpha`, { method: 'POST', body: JSON.stringify({ launcher: 'pi here' }) });
      expect(resumed.status, JSON.stringify(resumed.json)).toBe(200);
      expect(resumed.json.opened).toBe(true);
      expect(resumed.json.pane).toMatch(/^@alpha\//);
      expect(resumed.json.argv.slice(-2)[0]).toBe('--session');
      const own = resumed.json.pane.slice('@alpha/'.length);
      await until(member.hub, 'the resumed pane on the member', (h) => h.panes.has(own), 15_000);
      await until(lead.hub, 'the resumed pane on the lead', (h) => h.panes.has(resumed.json.pane), 15_000);
      await tmuxM.waitForScreen(own.slice(own.lastIndexOf(':') + 1), new RegExp(`resumed in ${folderM.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} with: --session`), 15_000);

      // The member gone: the lead's page still lists its own and says the member is away.
      await member.stop();
      memberUp = false;
      await until(lead.hub, 'the member gone', () => !lead.crew.connected().includes('alpha'), 30_000);
      const without = await get<SessionsPage>(lead, '/api/sessions');
      expect(without.status).toBe(200);
      expect(without.json.sessions.map(key)).toEqual(only((m) => m.machine === 'bluefin'));
      expect(without.json.away).toEqual([{ machine: 'alpha', reason: expect.stringContaining('alpha') }]);
      const readAway = await get<{ error: { code: string } }>(lead, `/api/sessions/pi/${pi.id}?machine=alpha`);
      expect(readAway.json.error.code).toBe('member_unreachable');
    } finally {
      if (memberUp) await member.stop();
    }
  });
});
