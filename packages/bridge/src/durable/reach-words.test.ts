import { describe, expect, it } from 'vitest';
import { unreachableWords } from './reach-words';

describe('why a durable agent cannot be reached, in words', () => {
  it('names no errno, path or socket call', () => {
    for (const m of ['connect ENOENT /tmp/x/desk.sock', 'connect ECONNREFUSED 127.0.0.1:7070', 'connect EACCES /run/a.sock', 'socket hang up', 'no answer in 5000 ms', 'getaddrinfo ENOTFOUND far.example', 'GET /hello answered 500', 'self-signed certificate', 'anything else']) {
      const w = unreachableWords(m, true);
      expect(w).not.toMatch(/E[A-Z]{3,}|\/tmp|\.sock|connect |getaddrinfo/);
      expect(w).toMatch(/^[A-Z].*\.$/);
    }
    expect(unreachableWords('connect ENOENT /tmp/x/desk.sock', true)).toBe('Nothing answers at its socket: the durable agent is not running, or listens elsewhere.');
    expect(unreachableWords('connect ECONNREFUSED 127.0.0.1:7070', false)).toBe('Nothing answers at its address: the durable agent is not running, or listens elsewhere.');
    expect(unreachableWords('its hello does not match wire v1', true)).toBe('It answered, but its hello does not match wire v1.');
  });
});
