import { Command, InvalidArgumentError } from 'commander';
import { loadAcp, loadBridge, loadDemo, loadWalky, qrText } from './load';

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

program
  .command('pair')
  .description('print a one-time pairing link, its QR code and an 8-character code (valid 10 minutes, once)')
  .option('--url', 'print the pairing link alone')
  .option('--no-qr', 'do not print the QR code')
  .option('--watch-only', 'the device that pairs sees everything and sends nothing (no sends, keys, answers or messages)')
  .option('--json', 'print {url, qr, maySend, expiresAt} for a script (the code is in the lines only)')
  .action(async (o: { url?: boolean; qr: boolean; watchOnly?: boolean; json?: boolean }) => {
    const p = await (await loadBridge()).pair(process.env, { watchOnly: o.watchOnly === true });
    if (o.json) return void process.stdout.write(`${JSON.stringify({ url: p.url, qr: p.qr, maySend: p.maySend, expiresAt: p.expiresAt, lines: p.lines })}\n`);
    if (o.url) return void process.stdout.write(`${p.url}\n`);
    process.stdout.write(`${p.lines.join('\n')}\n`);
    if (p.qr && o.qr && process.stdout.isTTY) process.stdout.write(`${await qrText(p.qr)}\n`);
  });

program
  .command('token')
  .description('make a device for a script and print its bearer token, once')
  .requiredOption('--name <name>', 'the device name shown in collie devices list')
  .option('--watch-only', 'the token reads everything and may not send')
  .action(async (o: { name: string; watchOnly?: boolean }) => {
    const t = await (await loadBridge()).token(o.name, process.env, { watchOnly: o.watchOnly === true });
    process.stdout.write(`${t.token}\n`);
    process.stderr.write(`Device '${t.device.name}' paired${t.device.maySend ? '' : ', watch only'}${t.bridge ? '' : ' (the bridge will accept it when it starts)'}. Send it as: Authorization: Bearer <token>. It is not shown again.\n`);
  });

const devices = program.command('devices').description('the paired devices');
devices
  .command('list')
  .description('name, kind, right (may send or watch only), paired at, last seen')
  .option('--json', 'print the devices as JSON')
  .action(async (o: { json?: boolean }) => {
    const b = await loadBridge();
    const list = await b.devicesList();
    process.stdout.write(o.json ? `${JSON.stringify({ devices: list })}\n` : `${b.formatDevices(list)}\n`);
  });
devices
  .command('set')
  .argument('[device]', 'the device, by name or id (see collie devices list)')
  .description('change what a device may do: --watch-only (sees everything, sends nothing) or --may-send; exit 2 usage, 3 no such device')
  .option('--watch-only', 'the device reads everything; every send, key, answer, message and change of the machine is refused')
  .option('--may-send', 'the device may send again')
  .option('--json', 'print {ok, device, changed} for a script')
  .action(async (name: string | undefined, o: { watchOnly?: boolean; maySend?: boolean; json?: boolean }) => {
    const r = await (await loadBridge()).devicesSet(name ?? '', o);
    if (r.out) process.stdout.write(r.out);
    if (r.err) process.stderr.write(r.err);
    process.exitCode = r.code;
  });
devices
  .command('revoke <name>')
  .description('remove a device: its open connections close and its token stops working at once')
  .action(async (name: string) => {
    const d = await (await loadBridge()).devicesRevoke(name);
    process.stdout.write(`Revoked '${d.name}'.\n`);
  });

program
  .command('skill')
  .description('the walky talky skill in your agents\' instruction files: sync | install <harness|all> | uninstall <harness|all> | status [--check]')
  .argument('<verb>', 'sync, install, uninstall or status')
  .argument('[harness]', 'claude, codex, opencode, pi, gemini or all')
  .option('--dry-run', 'show the changes, write nothing')
  .option('--json', 'print the result for a script')
  .option('--check', 'status: print nothing, exit 3 when an installed copy is stale')
  .action(async (verb: string, harness: string | undefined, o: { dryRun?: boolean; json?: boolean; check?: boolean }) => {
    if (verb !== 'sync' && verb !== 'install' && verb !== 'uninstall' && verb !== 'status') {
      process.stderr.write('usage: collie skill sync | install <harness|all> | uninstall <harness|all> | status [--check] [--dry-run] [--json]\n');
      process.exitCode = 2;
      return;
    }
    const r = await (await loadBridge()).skill({ verb, harness, ...o });
    if (r.out) process.stdout.write(`${r.out}\n`);
    process.exitCode = r.code;
  });

program
  .command('update')
  .description('after installing a build here: bring the walky talky skill up to date in every harness found (COLLIE_SKILL_SYNC=off: only a note)')
  .option('--dry-run', 'show the changes, write nothing')
  .option('--json', 'print the result for a script')
  .action(async (o: { dryRun?: boolean; json?: boolean }) => {
    const r = await (await loadBridge()).update(o);
    if (r.out) process.stdout.write(`${r.out}\n`);
    process.exitCode = r.code;
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
durable
  .command('acp')
  .description('serve an Agent Client Protocol agent as a durable agent: collie durable acp [--name N] [--cwd DIR] [--serve] -- <command> [args…]')
  .argument('<command...>', 'the ACP agent and its arguments, after --')
  .option('--name <name>', 'its name on the phone and in sources.json (default: the command\'s name)')
  .option('--cwd <dir>', 'the folder its sessions work in; files and terminals stay inside it (default: here)')
  .option('--serve', 'keep running: restart the agent with back-off when it dies')
  .action(async (command: string[], o: { name?: string; cwd?: string; serve?: boolean }) => {
    const registry = (await loadBridge()).durableRegistry();
    process.exitCode = await (await loadAcp()).durableAcp({ ...o, command }, registry);
  });

const push = program.command('push').description('Web Push to your phone');
push
  .command('keys')
  .description('make the VAPID keys in the state dir (0600) once, and print the public key')
  .action(async () => {
    const k = await (await loadBridge()).pushKeys();
    process.stdout.write(`${k.publicKey}\n`);
    process.stderr.write(`${k.created ? 'Made' : 'Kept'} the push keys in ${k.file}.\n`);
  });

program
  .command('crew')
  .description('several machines on one phone: create | invite | join | list | leave | remove | update (--json on each)')
  .helpOption(false);

program
  .command('walky')
  .description('message other agent panes: who | send | reply | inbox | status (--json on each)')
  .helpOption(false);

const fail = (err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
};
// walky parses its own arguments: its usage errors exit 2, as the manual says.
if (process.argv[2] === 'walky') loadWalky().then((w) => w.main(process.argv.slice(3)), fail);
// crew parses its own arguments too: usage errors exit 2, refusals 4, not in a crew 3.
else if (process.argv[2] === 'crew')
  loadBridge().then(async (b) => {
    const r = await b.crew(process.argv.slice(3));
    if (r.out) process.stdout.write(r.out);
    if (r.err) process.stderr.write(r.err);
    process.exitCode = r.code;
  }, fail);
else program.parseAsync().catch(fail);
