import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Harness } from '@collie/protocol';
import { agentOfPath, detectHarness, harnessOf } from './detect-harness';
import type { Proc } from './proc-stat';

const proc = (argv: string[], comm = (argv[0] ?? '').split('/').pop() ?? '', pid = 2): Proc => ({
  pid,
  ppid: 1,
  comm: comm.slice(0, 15),
  argv,
});

const NM = '/usr/lib/node_modules';
const table: ReadonlyArray<readonly [Harness, string[], string?]> = [
  ['claude', ['claude']],
  ['claude', ['claude', '--resume'], 'claude'],
  ['claude', ['node', `${NM}/@anthropic-ai/claude-code/cli.js`]],
  ['claude', ['node', '--no-warnings', `${NM}/@anthropic-ai/claude-code/cli.js`, '-c']],
  ['claude', ['/app/node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude', '--output-format', 'stream-json']],
  ['claude', ['/home/ada/.local/share/claude/versions/2.1.201'], '2.1.201'],
  ['claude', ['claude --dangerously-skip-permissions'], 'claude'],
  ['codex', ['node', '/usr/local/bin/codex']],
  ['codex', ['node', `${NM}/@openai/codex/bin/codex.js`, 'resume']],
  ['codex', [`${NM}/@openai/codex/vendor/x86_64-unknown-linux-musl/codex/codex`]],
  ['codex', ['codex-x86_64-unknown-linux-musl', 'exec']],
  ['opencode', ['node', `${NM}/opencode-ai/bin/opencode`]],
  ['opencode', [`${NM}/opencode-ai/node_modules/opencode-linux-x64/bin/opencode`]],
  ['opencode', ['opencode']],
  ['gemini', ['node', '/usr/local/bin/gemini']],
  ['gemini', ['node', '--max-old-space-size=8192', `${NM}/@google/gemini-cli/dist/index.js`]],
  ['gemini', ['gemini', '-p', 'hi']],
  ['pi', ['pi']],
  ['pi', ['node', '/usr/local/bin/pi']],
  ['pi', ['node', `${NM}/@mariozechner/pi-coding-agent/dist/cli.js`]],
  ['omp', ['omp']],
  ['omp', ['bun', `${NM}/@oh-my-pi/pi-coding-agent/src/cli.ts`]],
  ['aider', ['/home/ada/.local/pipx/venvs/aider-chat/bin/python', '/home/ada/.local/bin/aider'], 'aider'],
  ['aider', ['/home/ada/.local/pipx/venvs/aider-chat/bin/python', '/home/ada/.local/bin/aider'], 'python'],
  ['aider', ['python3', '-m', 'aider']],
  ['aider', ['python3.12', '-X', 'utf8', '-m', 'aider.main', '--model', 'x']],
  ['shell', ['-bash']],
  ['shell', ['/bin/zsh', '-l']],
  ['shell', ['pip', 'install', 'pi']],
  ['shell', ['ping', 'pi']],
  ['shell', ['pipx', 'run', 'x']],
  ['shell', ['pi-hole', 'status']],
  ['shell', ['omp-stats']],
  ['shell', ['python3', 'pi.py']],
  ['shell', ['vim', 'claude.md']],
  ['shell', ['less', 'codex.log']],
  ['shell', ['man', 'aider']],
  ['shell', ['node', 'server.js']],
  ['shell', ['node', '-e', 'require("./codex")']],
  ['shell', ['python3', '-c', 'import aider']],
  ['shell', ['node', `${NM}/@mariozechner/pi/dist/cli.js`]],
  ['shell', [], 'kworker/0:1'],
];

describe('detectHarness', () => {
  it.each(table.map(([h, argv, comm]) => [h, argv.join(' ') || comm, argv, comm] as const))(
    '%s ← %s',
    (harness, _label, argv, comm) => {
      expect(detectHarness([proc(['-bash'], 'bash', 1), proc([...argv], comm)])).toBe(harness);
    },
  );

  it('takes the agent nearest the root', () => {
    const tree = [
      proc(['-bash'], 'bash', 1),
      proc(['claude'], 'claude', 2),
      proc(['node', '/usr/local/bin/codex'], 'node', 3),
    ];
    expect(detectHarness(tree)).toBe('claude');
    expect(detectHarness(tree.slice(2))).toBe('codex');
  });

  it('is shell for an empty tree', () => expect(detectHarness([])).toBe('shell'));

  it('never throws, and agrees with harnessOf on the first agent', () => {
    const argvArb = fc.array(fc.oneof(fc.string(), fc.constantFrom('node', '-m', '-r', 'pi', 'claude', '/x/@openai/codex/y')), {
      maxLength: 6,
    });
    const procArb = fc.record({ pid: fc.nat(), ppid: fc.nat(), comm: fc.string({ maxLength: 15 }), argv: argvArb });
    fc.assert(
      fc.property(fc.array(procArb, { maxLength: 5 }), (procs) => {
        const first = procs.map(harnessOf).find((h) => h !== null);
        expect(detectHarness(procs)).toBe(first ?? 'shell');
      }),
      { numRuns: 2000 },
    );
  });

  it('never takes a name that merely contains pi for pi', () => {
    const part = fc.stringMatching(/^[a-z_-]{0,6}$/);
    fc.assert(
      fc.property(part, part, (a, b) => {
        fc.pre(a + b !== '');
        const name = `${a}pi${b}`;
        expect(detectHarness([proc([name]), proc(['node', `/usr/local/bin/${name}`], 'node')])).not.toBe('pi');
      }),
    );
  });
});

describe('agentOfPath (a saved launcher\'s words)', () => {
  it('names the agent a command or script path runs, and nothing else', () => {
    expect(agentOfPath('/x/node_modules/opencode-ai/bin/opencode.exe')).toBe('opencode');
    expect(agentOfPath('/x/node_modules/@mariozechner/pi-coding-agent/dist/cli.js')).toBe('pi');
    expect(agentOfPath('/x/node_modules/@google/gemini-cli/bundle/gemini.js')).toBe('gemini');
    expect(agentOfPath('/x/node_modules/@openai/codex/bin/codex.js')).toBe('codex');
    expect(agentOfPath('/usr/local/bin/pi')).toBe('pi');
    for (const word of ['env', 'HOME=/tmp/home', '/usr/bin/node', '--session', 'pip']) expect(agentOfPath(word)).toBeNull();
  });
});
