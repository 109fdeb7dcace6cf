import { describe, expect, it } from 'vitest';
import { bridgeEnv } from './bridge-env';

describe('bridgeEnv', () => {
  it('holds malloc to two arenas and keeps the rest of the environment', () => {
    const env = bridgeEnv({ COLLIE_STATE_DIR: '/s', PATH: '/bin' });
    expect(env).toEqual({ COLLIE_STATE_DIR: '/s', PATH: '/bin', MALLOC_ARENA_MAX: '2' });
  });

  it('keeps a count the person set', () => {
    expect(bridgeEnv({ MALLOC_ARENA_MAX: '8' }).MALLOC_ARENA_MAX).toBe('8');
  });
});
