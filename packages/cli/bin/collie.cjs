#!/usr/bin/env node
// The `collie` command. CommonJS on purpose: `collie walky …`, which agents run in their
// turns, goes straight to its small bundle without starting the ES module loader (about
// 10 ms of CPU less per call, docs/benchmarks.md). Every other verb loads dist/collie.mjs.
'use strict';
if (process.argv[2] === 'walky') {
  let walky;
  try {
    walky = require('../../bridge/dist/walky.cjs');
  } catch (err) {
    process.stderr.write(`collie: walky talky is not built (${err.message}): run npm run build\n`);
    process.exit(1);
  }
  Promise.resolve(walky.main(process.argv.slice(3))).catch((err) => {
    process.stderr.write(`collie walky: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
} else {
  import('../dist/collie.mjs');
}
