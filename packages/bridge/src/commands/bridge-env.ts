/**
 * How many malloc arenas a bridge process may use, unless its environment already says.
 *
 * glibc gives each thread that allocates its own arena (up to 8 for each core). The bridge's
 * threads are libuv's pool and V8's helpers. Each arena keeps its free memory once a burst has
 * passed, and that memory is counted in the bridge's RSS. Two arenas keep that reserve small.
 * glibc reads the variable only when a process starts, so it goes into the environment of the
 * bridge process the daemon, its unit and `npm start` start (docs/adr/0006-two-malloc-arenas.md).
 */
export const MALLOC_ARENAS = '2';

/** `env` for a bridge process: the same, with MALLOC_ARENA_MAX=2 unless `env` sets it. */
export function bridgeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return env.MALLOC_ARENA_MAX ? env : { ...env, MALLOC_ARENA_MAX: MALLOC_ARENAS };
}
