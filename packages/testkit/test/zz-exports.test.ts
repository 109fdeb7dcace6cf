import { expect, test } from 'vitest';
import { runDemo } from '@collie/testkit/demo';
import * as kit from '@collie/testkit';
test('exports', () => {
  expect(typeof runDemo).toBe('function');
  expect(Object.keys(kit).sort()).toMatchInlineSnapshot();
});
