import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INPUT_MARK, inputOffCommands, inputOnCommands, inputsLeftOff } from './left-off';
import { ownMark } from './orphans';

describe('pane input a dead bridge left off', () => {
  it('only panes marked by a process gone are switched on: never an unmarked pane, never a live owner’s', () => {
    const alive = (m: string) => m === 'live';
    expect(inputsLeftOff(['%1\tdead', '%2\t', '%3\tlive', '%4\t12:34', 'junk', '', '%x\tdead', '\tdead'], alive)).toEqual(['%1', '%4']);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(500), fc.constantFrom('', 'live', 'dead', '1:2', 'x\ty')), { maxLength: 30 }), fc.array(fc.string(), { maxLength: 10 }), (rows, junk) => {
        const lines = [...rows.map(([n, mark]) => `%${n}\t${mark}`), ...junk.filter((j) => !/^%\d+\t/.test(j))];
        const out = inputsLeftOff(lines, alive);
        expect(out).toEqual(rows.filter(([, mark]) => mark !== '' && mark !== 'live').map(([n]) => `%${n}`));
      }),
    );
  });

  it('switching off marks the pane as this process’s, in the same batch; switching on takes the mark away', () => {
    expect(inputOffCommands('%7')).toEqual([['select-pane', '-d', '-t', '%7'], ['set-option', '-p', '-t', '%7', INPUT_MARK, ownMark()]]);
    expect(inputOnCommands('%7')).toEqual([['select-pane', '-e', '-t', '%7'], ['set-option', '-p', '-u', '-t', '%7', INPUT_MARK]]);
  });
});
