// The soak's bridge process: `collie serve` itself (the built commands bundle's serve()), with one
// thing given in code that no flag or variable reaches: pushes may go to the soak's stand-in push
// service on loopback (its CA in the file SOAK_PUSH_CA). Without SOAK_PUSH_CA it is plain serve.
//   node bench/soak/bridge-main.mjs --port N
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../lib.mjs';

const { serve } = await import(pathToFileURL(join(root, 'packages/bridge/dist/commands.mjs')).href);
const i = process.argv.indexOf('--port');
const port = i < 0 ? undefined : Number(process.argv[i + 1]);
const ca = process.env.SOAK_PUSH_CA;
await serve({ port, qr: false, interactive: false, ...(ca ? { push: { ca: readFileSync(ca, 'utf8'), loopbackEndpoints: true } } : {}) });
