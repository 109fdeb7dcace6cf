import { describe, expect, it } from 'vitest';
import { Watches } from './watches';

describe('Watches', () => {
  it('reports the first watcher and the last leaving, keeps values only for watched panes', () => {
    const w = new Watches<number>();
    let told = 0;
    const a = () => told++;
    const b = () => told++;
    expect(w.add('p', a)).toBe(true);
    expect(w.add('p', b)).toBe(false);
    w.update('q', () => 1);
    expect(w.value('q')).toBeNull();
    w.update('p', (now) => (now ?? 0) + 5);
    expect(w.value('p')).toBe(5);
    expect(told).toBe(2);
    w.update('p', () => undefined);
    expect(told).toBe(2);
    expect(w.remove('p', a)).toBe(false);
    expect(w.remove('p', b)).toBe(true);
    expect(w.value('p')).toBeNull();
    expect([...w.ids()]).toEqual([]);
  });
});
