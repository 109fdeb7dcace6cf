// Type-checks each package against its own tsconfig (the protocol's sees no node types).
import { join } from 'node:path';
import { root, sh } from './lib.mjs';

let failed = 0;
// The web app's tests need node types, which its browser code must not see: their own tsconfig.
for (const p of ['protocol', 'durable-sdk', 'bridge', 'cli', 'testkit', 'web', 'web/test', 'nerve', 'acp-bridge']) {
  const code = sh(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', `packages/${p}/tsconfig.json`]);
  if (code !== 0) {
    console.error(`typecheck: packages/${p} has errors`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
