import { Command, InvalidArgumentError } from 'commander';
import { loadBridge, loadDemo } from './load';

/**
 * The `collie` command. It stays thin: parsing and printing here, the work in the bridge's
 * bundled commands, loaded only by the verbs that need them so `collie --help` is instant.
 */
const program = new Command('collie')
  .description('Collie: see which coding agent waits on you, from your phone.')
  .version('0.1.0')
  .showHelpAfterError();

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return n;
}

program
  .command('serve')
  .description('run the bridge in the foreground (what npm start runs)')
  .option('-p, --port <port>', 'port to listen on (0 picks a free one); default COLLIE_PORT or 8787', port)
  .option('--no-qr', 'do not print the QR code of the URL')
  .action(async (o: { port?: number; qr: boolean }) => {
    const b = await loadBridge();
    await b.serve({ port: o.port, qr: o.qr && process.stdout.isTTY });
  });

program
  .command('start')
  .description('run the bridge in the background (systemd --user where it runs, else a pid file)')
  .action(async () => void (await (await loadBridge()).start()));

program
  .command('stop')
  .description('stop the background bridge')
  .action(async () => void (await (await loadBridge()).stop()));

program
  .command('status')
  .description('say whether the bridge runs, and where')
  .action(async () => {
    const s = await (await loadBridge()).status();
    process.stdout.write(`Collie bridge ${s.detail}\n`);
    process.exitCode = s.running ? 0 : 3;
  });

program
  .command('doctor')
  .description('check Node, tmux, the state dir, the port and the tmux servers')
  .action(async () => {
    const b = await loadBridge();
    const checks = await b.doctor();
    process.stdout.write(`${b.formatChecks(checks)}\n`);
    process.exitCode = checks.every((c) => c.ok) ? 0 : 1;
  });

program
  .command('screen <file>')
  .description('read a saved pane screen (capture-pane -e output) and print {harness, state, dialog, draft} as JSON')
  .option('--harness <name>', 'the agent that drew it (default: guessed from the screen)')
  .action(async (file: string, o: { harness?: string }) => {
    process.stdout.write(`${await (await loadBridge()).screen(file, o.harness)}\n`);
  });

program
  .command('demo')
  .description('start a private tmux server with real Claude Code panes running offline, and the bridge')
  .option('-p, --port <port>', 'port for the bridge if none runs yet', port)
  .action(async (o: { port?: number }) => {
    await (await loadDemo()).demo({ port: o.port });
  });

const durable = program.command('durable').description('attach durable agents (programs that speak wire v1 on a socket or URL)');
durable
  .command('add <name> <socket|url>')
  .description('attach a durable agent: a unix socket path, http://127.0.0.1:<port>, or https://… with --token-stdin')
  .option('--token-stdin', 'read the bearer token of a remote agent from stdin')
  .action(async (name: string, where: string, o: { tokenStdin?: boolean }) => {
    let token: string | null = null;
    if (o.tokenStdin) {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin as AsyncIterable<Buffer>) chunks.push(c);
      token = Buffer.concat(chunks).toString('utf8').trim() || null;
    }
    process.stdout.write(`${await (await loadBridge()).durableAdd(name, where, token)}\n`);
  });
durable
  .command('list')
  .description('list the attached durable agents and their states')
  .action(async () => void process.stdout.write(`${await (await loadBridge()).durableList()}\n`));
durable
  .command('remove <name>')
  .description('detach a durable agent')
  .action(async (name: string) => void process.stdout.write(`${await (await loadBridge()).durableRemove(name)}\n`));

program.parseAsync().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
