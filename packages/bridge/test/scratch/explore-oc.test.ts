import { it } from 'vitest';
import { execSync } from 'node:child_process';
import { chatReply, chatToolCall, startChatApi, startOpencode, startTmux, tempDir } from '@collie/testkit';

it('explore', async () => {
  await using tmux = await startTmux();
  await using api = await startChatApi();
  const home = '/tmp/oc-explore-home';
  execSync(`rm -rf ${home} /tmp/oc-explore-cwd; mkdir -p ${home} /tmp/oc-explore-cwd`);
  const oc = await startOpencode(tmux, api, { home, cwd: '/tmp/oc-explore-cwd', permission: { bash: 'allow', edit: 'allow' } });
  const oc2 = await startOpencode(tmux, api, { home, cwd: '/tmp/oc-explore-cwd', permission: { bash: 'allow', edit: 'allow' } });
  api.script(chatReply('Hello from OpenCode.'));
  await oc.submit('hi opencode');
  await oc.waitForScreen((s) => s.includes('Hello from OpenCode.'), 180_000);
  api.script(...chatToolCall('bash', { command: 'echo collie-marker', description: 'Print a marker' }));
  await oc.submit('run the marker');
  await oc.waitForScreen((s) => s.includes('Tool finished'), 180_000);
  api.script(chatReply('Hello from two.'));
  await oc2.submit('hi from two');
  await oc2.waitForScreen((s) => s.includes('Hello from two.'), 180_000);
  const pids = execSync(`pgrep -f opencode.exe || true`).toString();
  let out = `pids ${pids}\n`;
  for (const pid of pids.trim().split('\n')) out += execSync(`for f in /proc/${pid}/fd/19 /proc/${pid}/fd/23; do readlink $f; cat /proc/${pid}/fdinfo/$(basename $f); done; stat -c %s ${home}/.local/share/opencode/log/opencode.log; ls -l /proc/${pid}/fd 2>/dev/null | grep -v 'socket\\|pipe\\|anon\\|/dev/' || true; tr '\\0' '\\n' < /proc/${pid}/cmdline; tr '\\0' '\\n' < /proc/${pid}/environ | grep -i opencode || true`).toString();
  execSync(`cat > /tmp/oc-explore.txt`, { input: out });
  await oc.kill(); await oc2.kill();
}, 600_000);
