import { configDefaults, defineConfig } from 'vitest/config';
import { SlowFirst } from './scripts/slow-first.mjs';

// One run for every package, in three projects (`npm test` runs fast and live, then soak alone;
// `npm run test:fast` the first).
// fast: the pure, property and fuzz tests beside the code (packages/*/src). The rule for a test
//   author: a test beside the code starts no process and opens no socket; one that needs tmux,
//   an agent, Chromium, a server, git or any child process lives in its package's test/ folder.
//   scripts/fast-guard.mjs enforces it: spawning, listening or connecting throws there.
// live: the real-process tests (packages/*/test). They start their own private servers, so
//   files run in parallel processes but never share state.
// soak: the soak for three minutes with a fixed seed (packages/bridge/test/soak.test.ts).
const SOAK = 'packages/bridge/test/soak.test.ts';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
    // The slowest live files start first (scripts/slow-first.mjs), so no long file runs alone at the end.
    sequence: { sequencer: SlowFirst },
    projects: [
      { extends: true, test: { name: 'fast', include: ['packages/*/src/**/*.test.ts', 'packages/*/src/**/*.test.tsx'], setupFiles: ['scripts/fast-guard.mjs'], isolate: false } },
      { extends: true, test: { name: 'live', include: ['packages/*/test/**/*.test.ts'], exclude: [...configDefaults.exclude, SOAK] } },
      // The 3-minute soak (bench/soak.mjs) runs alone, after the rest: it loads both cores itself.
      { extends: true, test: { name: 'soak', include: [SOAK], testTimeout: 15 * 60_000 } },
    ],
  },
});
