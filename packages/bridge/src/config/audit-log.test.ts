import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendAudit } from './audit-log';

let root: string;
const mode = (path: string) => statSync(path).mode & 0o777;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'collie-state-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('appendAudit', () => {
  it('appends one JSON line per entry, stamped, at mode 0600', async () => {
    let t = Date.UTC(2026, 0, 2, 3, 4, 5);
    await appendAudit(root, { action: 'pane.send', pane: 'default:%7' }, () => t);
    t += 1000;
    await appendAudit(root, { action: 'walky.reply', text: 'two\nlines' }, () => t);
    const file = join(root, 'audit.log');
    expect(mode(file)).toBe(0o600);
    expect(readFileSync(file, 'utf8').split('\n')).toEqual([
      '{"at":"2026-01-02T03:04:05.000Z","action":"pane.send","pane":"default:%7"}',
      '{"at":"2026-01-02T03:04:06.000Z","action":"walky.reply","text":"two\\nlines"}',
      '',
    ]);
  });

  it('tightens the mode of an existing log', async () => {
    const file = join(root, 'audit.log');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    await appendAudit(root, { action: 'x' });
    expect(mode(file)).toBe(0o600);
  });

  it('keeps concurrent lines whole', async () => {
    await Promise.all(Array.from({ length: 50 }, (_, i) => appendAudit(root, { action: 'n', i, pad: 'p'.repeat(2000) })));
    const lines = readFileSync(join(root, 'audit.log'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(50);
    expect(lines.map((l) => (JSON.parse(l) as { i: number }).i).sort((a, b) => a - b)).toEqual([...Array(50).keys()]);
  });
});

describe('appendAudit caps the log', () => {
  it('cuts long values and says so', async () => {
    await appendAudit(root, { path: `/api/${'a'.repeat(5000)}`, nested: { reason: 'r'.repeat(300) } });
    const line = JSON.parse(readFileSync(join(root, 'audit.log'), 'utf8')) as { path: string; nested: { reason: string } };
    expect(line.path).toBe(`/api/${'a'.repeat(195)}… [cut: 5005 characters]`);
    expect(line.nested.reason).toBe(`${'r'.repeat(200)}… [cut: 300 characters]`);
  });

  it('rotates at its cap, keeping one older file at 0600; concurrent appends lose no line', async () => {
    const maxBytes = 4096;
    await Promise.all(Array.from({ length: 300 }, (_, i) => appendAudit(root, { action: 'n', i }, Date.now, { maxBytes })));
    const file = join(root, 'audit.log');
    expect(readdirSync(root).sort()).toEqual(['audit.log', 'audit.log.1']);
    for (const f of [file, `${file}.1`]) {
      expect(statSync(f).size).toBeLessThanOrEqual(maxBytes);
      expect(mode(f)).toBe(0o600);
    }
    // The newest lines, in order, run on from the rotated file into the live one.
    const seen = [`${file}.1`, file].flatMap((f) => readFileSync(f, 'utf8').trimEnd().split('\n').map((l) => (JSON.parse(l) as { i: number }).i));
    expect(seen).toEqual([...Array(300).keys()].slice(300 - seen.length));
  });
});
