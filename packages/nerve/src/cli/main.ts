/** `nerve serve --config config.yaml`: the gateway in the foreground until SIGINT or SIGTERM. */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config/config';
import { startNerve } from '../nerve';
import { EXIT, parseArgs, USAGE } from './args';

function stateDir(): string {
  if (process.env.NERVE_STATE_DIR) return process.env.NERVE_STATE_DIR;
  const base = process.env.COLLIE_STATE_DIR ?? join(process.env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state'), 'collie');
  return join(base, 'nerve');
}

async function main(): Promise<number> {
  const p = parseArgs(process.argv.slice(2));
  if (!p.ok) {
    process.stderr.write(`${p.message}\n${USAGE}\n`);
    return EXIT.usage;
  }
  const cmd = p.command;
  if (cmd.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (cmd.kind === 'version') {
    process.stdout.write('nerve 0.1.0\n');
    return EXIT.ok;
  }
  let nerve;
  try {
    nerve = await startNerve({ configFile: cmd.config, defaultStateDir: stateDir(), verbose: cmd.verbose, log: (l) => process.stderr.write(`${l}\n`) });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`nerve: bad config: ${err.message}\n`);
      return EXIT.config;
    }
    process.stderr.write(`nerve: could not start: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.failed;
  }
  process.stdout.write(`nerve listening on ${nerve.url}${nerve.durable ? ` · durable agent on ${nerve.durable}` : ''} · credential in ${nerve.apiFile}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await nerve.close();
  return EXIT.ok;
}

// Exit when done: a runtime's process that ignored its close must not hold the gateway past
// its bounded shutdown (nerve.close waits for the shells' stop_task answers, at most 5 s).
process.exit(await main());
