import { describe, expect, it } from 'vitest';
import { downWords } from './down-words';

const clock = () => '08:43';

describe('downWords', () => {
  it('says the bridge stopped only when it said so', () => {
    expect(downWords({ since: 1, why: 'stopped' }, clock).title).toBe('The bridge stopped at 08:43');
    expect(downWords({ since: 1, why: 'lost' }, clock).title).toBe('Offline since 08:43');
    expect(downWords({ since: 1, why: 'offline' }, clock).detail).toMatch(/^This phone has no network\./);
  });

  it('never says the agents are gone', () => {
    for (const why of ['stopped', 'offline', 'lost'] as const) {
      const words = downWords({ since: 1, why }, clock);
      expect(`${words.title} ${words.detail}`).not.toMatch(/gone|No agent/);
      expect(words.detail).toContain('your agents keep running');
    }
  });
});
