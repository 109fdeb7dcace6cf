import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ControlParser, unescapeOutput } from './control-parser';

function feed(lines: string[]) {
  const p = new ControlParser();
  return lines.map((l) => p.push(l)).filter((e) => e !== null);
}

describe('control-mode parser', () => {
  it('pairs %begin and %end by their guard and keeps the lines between', () => {
    const evs = feed(['%begin 1 268 1', 'one: 1 windows', '%end 1 268 0', 'two', '%end 1 268 1']);
    expect(evs).toEqual([{ kind: 'reply', ok: true, fromClient: true, lines: ['one: 1 windows', '%end 1 268 0', 'two'] }]);
  });

  it('marks the reply to the attach command (flags 0) as not ours, and errors as failures', () => {
    expect(feed(['%begin 5 1 0', '%end 5 1 0'])).toEqual([{ kind: 'reply', ok: true, fromClient: false, lines: [] }]);
    expect(feed(['%begin 5 2 1', "can't find pane: %99", '%error 5 2 1'])).toEqual([{ kind: 'reply', ok: false, fromClient: true, lines: ["can't find pane: %99"] }]);
  });

  it('decodes %output octal escapes, including the backslash itself', () => {
    expect(feed(['%output %3 echo hi\\015\\012a\\134b'])).toEqual([{ kind: 'output', paneId: '%3', data: 'echo hi\r\na\\b' }]);
  });

  it('reads %extended-output (pause-after) as output, a " : " in the data kept, and %pause as a notification', () => {
    // As tmux 3.3a wrote them, with `-f pause-after=1`.
    expect(feed(['%extended-output %0 0 : a : b\\134c\\015\\012', '%pause %0', '%continue %0'])).toEqual([
      { kind: 'output', paneId: '%0', data: 'a : b\\c\r\n' },
      { kind: 'notification', name: 'pause', args: ['%0'], raw: '%pause %0' },
      { kind: 'notification', name: 'continue', args: ['%0'], raw: '%continue %0' },
    ]);
  });

  it('reads notifications with their arguments', () => {
    expect(feed(['%window-add @4', '%sessions-changed'])).toEqual([
      { kind: 'notification', name: 'window-add', args: ['@4'], raw: '%window-add @4' },
      { kind: 'notification', name: 'sessions-changed', args: [], raw: '%sessions-changed' },
    ]);
  });

  it('never throws, and a reply carries back exactly the lines it wrapped', () => {
    const line = fc.string({ maxLength: 80 }).filter((s) => !s.includes('\n'));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), fc.array(line, { maxLength: 30 }), (body, noise) => {
        const p = new ControlParser();
        for (const l of noise) p.push(l); // arbitrary garbage first, possibly an open block
        p.push('%end 9 9 1'); // close whatever the garbage may have opened, in most cases
        const safe = body.filter((l) => !l.startsWith('%end 7 7 1') && !l.startsWith('%error 7 7 1'));
        const p2 = new ControlParser();
        p2.push('%begin 7 7 1');
        for (const l of safe) expect(p2.push(l)).toBeNull();
        expect(p2.push('%end 7 7 1')).toEqual({ kind: 'reply', ok: true, fromClient: true, lines: safe });
      }),
    );
  });

  it('unescape is the inverse of the escaping tmux does', () => {
    const escape = (s: string) => s.replace(/[\x00-\x1f\\]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
    fc.assert(fc.property(fc.string(), (s) => unescapeOutput(escape(s)) === s));
  });
});
