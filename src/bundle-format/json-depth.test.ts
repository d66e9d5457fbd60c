import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('nestsDeeperThan', () => {
  it.each([
    ['flat values', '1', 0, false],
    ['an object', '{"a":1}', 1, false],
    ['an object in an array past the bound', '[{"a":1}]', 1, true],
    ['siblings at the same level', '[[1],[2],{"a":[3]}]', 3, false],
    ['brackets inside strings', '{"a":"[[[[{{{{"}', 1, false],
    ['escaped quotes inside strings', '{"a":"\\"[[[["}', 1, false],
    ['an escaped backslash before the closing quote', '{"a":"\\\\","b":[[1]]}', 2, true],
  ])('%s', (_what, text, max, expected) => {
    expect(nestsDeeperThan(text, max)).toBe(expected);
  });

  it('allows a snapshot as deep as the recorder writes and refuses a hostile one', () => {
    expect(nestsDeeperThan(nested(210))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsDeeperThan(nested(1_000_000))).toBe(true);
  });
});
