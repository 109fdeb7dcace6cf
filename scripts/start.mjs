// `npm start`: install and build what is missing (only what runs: scripts/ensure.mjs), then run
// the bridge in the foreground, with the environment every bridge process starts with (bridgeEnv).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensure } from './ensure.mjs';
import { root } from './lib.mjs';

ensure({ scope: 'app' });
const { bridgeEnv } = await import(pathToFileURL(join(root, 'packages/bridge/dist/commands.mjs')).href);
const child = spawn(process.execPath, [join(root, 'packages/cli/dist/collie.mjs'), 'serve', ...process.argv.slice(2)], { stdio: 'inherit', env: bridgeEnv(process.env) });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
