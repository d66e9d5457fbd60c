import { describe, expect, it } from 'vitest';
import { parseReproArgs } from './repro-command';

describe('parseReproArgs', () => {
  it.each([
    [['b.zip', '--out', 'r.spec.ts'], { file: 'b.zip', out: 'r.spec.ts', lang: 'ts', offline: false, run: false }],
    [['b.zip', '--out', 'r.py', '--lang', 'python', '--offline'], { lang: 'python', offline: true }],
    [['b.zip', '--run', '--offline', '--headed', '--json'], { run: true, offline: true, headed: true, json: true }],
  ])('%j', (args, expected) => {
    expect(parseReproArgs(args)).toMatchObject({ name: 'repro', ...expected });
  });

  it.each([
    [[], /needs a bundle/],
    [['b.zip'], /one of --out <file>.*or --run/],
    [['b.zip', '--out', 'x', '--run'], /one of --out/],
    [['b.zip', '--out', 'x', '--lang', 'ruby'], /--lang takes ts, python, devtools/],
    [['b.zip', '--out', 'x', '--lang', 'devtools', '--offline'], /cannot answer requests/],
    [['b.zip', '--out', 'x', '--headed'], /go with --run/],
    [['b.zip', '--run', '--lang', 'python'], /go with --out/],
    [['a.zip', 'b.zip', '--run'], /one bundle at a time/],
    [['b.zip', '--run', '--nope'], /unknown option --nope/],
  ])('%j is a usage error', (args, message) => {
    expect(parseReproArgs(args)).toMatch(message);
  });
});
