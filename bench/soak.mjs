// A soak and fault run: hours of a person's machine in minutes, counted from what the panes really received.
// A private tmux world of stand-in agent panes (bench/soak/agent/claude: each logs every line
// submitted to it), the built bridge in its own process on a small state tmpfs, and phones
// (WebSocket clients) that drop and resume at random. A seeded schedule of sends (some into busy
// panes and open dialogs, some repeating a request id), card answers, keys typed at the pane
// during sends, panes and sessions made and killed, the bridge kill -9ed, SIGTERMed and started
// again, and the state disk filled to its last megabyte for a minute. Prints one table; exits 1
// when a line fails.
//   npm run soak -- [minutes=60] [--seed N] [--panes N] [--json <file>]
import { writeFileSync } from 'node:fs';
import { runSoak } from './soak/run.mjs';
import { table } from './soak/table.mjs';

const argv = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return dflt;
  const v = argv[i + 1];
  argv.splice(i, 2);
  return v;
};
const seed = Number(flag('seed', Date.now() % 100000));
const panes = Number(flag('panes', 200));
const json = flag('json', null);
const minutes = Number(argv[0] ?? 60);

// Each line with the time since the start: a slow phase shows where it went.
const start = Date.now();
const result = await runSoak({ minutes, seed, panes, log: (line) => console.error(`${((Date.now() - start) / 1000).toFixed(1).padStart(6)} s  ${line}`) });
const { text, failed } = table(result);
console.log(text);
if (json) writeFileSync(json, JSON.stringify(result, null, 2));
process.exit(failed ? 1 : 0);
