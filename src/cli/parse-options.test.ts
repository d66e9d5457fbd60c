import { describe, expect, it } from 'vitest';
import { parseOptions, type OptionRules } from './parse-options';

const rules: OptionRules = {
  options: {
    help: { type: 'boolean', short: 'h' },
    json: { type: 'boolean' },
    at: { type: 'string' },
    out: { type: 'string' },
    pattern: { type: 'string', multiple: true },
    steps: { type: 'string', missing: '--steps needs a number', check: (value, name) => (/^\d+$/.test(value) ? undefined : `${name}: not a number (${value})`) },
  },
  unknown: (name, word) => `unknown ${name} (${word})`,
};

describe('parseOptions', () => {
  it.each<[string[], object]>([
    [['b.zip', '--json', '--at', '-1500'], { values: { json: true, at: '-1500' }, order: ['--json', '--at'], positionals: [{ value: 'b.zip', index: 0 }] }],
    [['--out=', 'x'], { values: { out: '' }, positionals: [{ value: 'x', index: 1 }] }],
    [['--at', '--json'], { values: { at: '--json' }, positionals: [] }],
    [['--pattern', 'a', '--pattern=b=c'], { values: { pattern: ['a', 'b=c'] } }],
    [['--out', 'a', '--out', 'b'], { values: { out: 'b' }, order: ['--out', '--out'] }],
    [['-h', '-'], { values: { help: true }, positionals: [{ value: '-', index: 1 }] }],
    [['--', '--json', '-h'], { values: {}, positionals: [{ value: '--json', index: 1 }, { value: '-h', index: 2 }] }],
    [['--steps', '3'], { values: { steps: '3' } }],
  ])('%j reads', (args, read) => {
    expect(parseOptions(args, rules)).toMatchObject(read);
  });

  it.each<[string[], string]>([
    [['--verbose'], 'unknown --verbose (--verbose)'],
    [['--json=1'], 'unknown --json (--json=1)'],
    [['-xy'], 'unknown -xy (-xy)'],
    [['-hx'], 'unknown -hx (-hx)'],
    [['--at'], '--at needs a value'],
    [['--steps'], '--steps needs a number'],
    // The first problem in the order given wins.
    [['--steps', 'x', '--verbose'], '--steps: not a number (x)'],
    [['--verbose', '--steps', 'x'], 'unknown --verbose (--verbose)'],
  ])('%j is refused: %s', (args, problem) => {
    expect(parseOptions(args, rules)).toBe(problem);
  });

  it('reads words with one dash as positionals, and `--` as an option, when the rules say so', () => {
    const strict = { ...rules, dashWordsArePositional: true as const, noTerminator: true as const };
    expect(parseOptions(['-5', '-xy', 'b.zip'], strict)).toMatchObject({ positionals: [{ value: '-5', index: 0 }, { value: '-xy', index: 1 }, { value: 'b.zip', index: 2 }] });
    expect(parseOptions(['b.zip', '--', 'c'], strict)).toBe('unknown -- (--)');
  });

  it('checks each positional where it stands', () => {
    const none = { ...rules, positional: (word: string) => `no positionals (${word})` };
    expect(parseOptions(['a', '--verbose'], none)).toBe('no positionals (a)');
    expect(parseOptions(['--verbose', 'a'], none)).toBe('unknown --verbose (--verbose)');
  });
});
