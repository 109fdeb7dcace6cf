import { defineConfig } from 'vitest/config';

// One run for every package. Real-process tests (tmux, the Claude Code TUI, Chromium) start
// their own private servers, so files run in parallel processes but never share state.
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'packages/*/src/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
