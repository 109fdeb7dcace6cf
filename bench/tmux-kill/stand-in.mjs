// A stand-in bridge for bench/tmux-kill.mjs: `count` control clients on session `draw`, started
// as the bridge starts them (under `setpriv --pdeathsig KILL`), their input either a socket of
// its own (`split`, the bridge before 2026-12-07) or the output's socket (`one`, the bridge's
// oneSocket). It reads them late, in bursts, as a busy bridge does, until it is killed with -9.
import { spawn } from 'node:child_process';

const [socket, count, layout] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
const attach = ['tmux', '-S', socket, '-C', 'attach-session', '-t', 'draw', '-f', 'ignore-size,pause-after=5'];
const argv = ['setpriv', '--pdeathsig', 'KILL', '--', ...(layout === 'one' ? ['sh', '-c', 'exec "$@" <&1', 'sh', ...attach] : attach)];
for (let i = 0; i < count; i++) {
  const c = spawn(argv[0], argv.slice(1), { stdio: [layout === 'one' ? 'ignore' : 'pipe', 'pipe', 'ignore'] });
  c.stdout.on('data', () => undefined);
  (layout === 'one' ? c.stdout : c.stdin).write('display-message -p ok\n');
}
process.stdout.write('up\n');
setInterval(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.random() * 15), 1);
