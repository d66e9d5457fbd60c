import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT_USAGE, type CliIo } from './command';
import { COMMANDS, USAGE, parseArgs, runCli } from './main';

function printed() {
  const out = { stdout: '', stderr: '' };
  const io = { stdout: (text: string) => void (out.stdout += text), stderr: (text: string) => void (out.stderr += text) } as unknown as CliIo;
  return { io, out };
}

describe('the table of commands', () => {
  it('names each command once, and --help lists each under its name, in the order of the table', () => {
    const names = COMMANDS.map((command) => command.name);
    expect(new Set(names).size).toBe(names.length);
    const at = names.map((name) => USAGE.search(new RegExp(`^  afr (\\w+\\|)*${name}[ |]`, 'm')));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    for (const command of COMMANDS) expect(USAGE).toContain(`${command.usage}\n`);
  });

  it.each(COMMANDS.map((command) => [command.name, command] as const))('%s refuses a word it does not know', (_name, command) => {
    expect(typeof command.parse(['--no-such-option'])).toBe('string');
  });

  it.each<[string[], object]>([
    [['summary', 'b.zip'], { name: 'read', verb: 'summary', file: 'b.zip' }],
    [['pull', 's3://runs/x'], { name: 'pull', location: 's3://runs/x' }],
    [['--json', 'validate', 'b.zip'], { name: 'validate', file: 'b.zip', json: true }],
    // The reads take their options after their name only.
    [['--json', 'summary', 'b.zip'], { name: 'usage-error', message: 'unknown command "summary"' }],
    [['frobnicate'], { name: 'usage-error', message: 'unknown command "frobnicate"' }],
    [['steps', 'b.zip', '--frobnicate'], { name: 'usage-error', message: 'unknown option --frobnicate', brief: true }],
    [['ls', 's3://runs/x', '--frobnicate'], { name: 'usage-error', message: '--frobnicate does not apply to ls' }],
    [['steps', 'b.zip', '-h'], { name: 'help' }],
    [['help', 'steps'], { name: 'help' }],
  ])('%j dispatches to %j', (argv, invocation) => {
    expect(parseArgs(argv)).toEqual(expect.objectContaining(invocation));
  });

  it.each<[string[], string]>([
    [['frobnicate'], `afr: unknown command "frobnicate"\n\n${USAGE}`],
    [['inspect', 'b.zip', '--frobnicate'], `afr: unknown option --frobnicate\n\n${USAGE}`],
    [['dom', 'b.zip', '--frobnicate'], 'afr: unknown option --frobnicate (afr --help lists the commands)\n'],
    [['mcp', '--frobnicate'], 'afr: --frobnicate does not apply to mcp (afr --help lists the commands)\n'],
  ])('afr %j: usage error, exit 2', async (argv, stderr) => {
    const { io, out } = printed();
    expect(await runCli(argv, io)).toBe(EXIT_USAGE);
    expect(out).toEqual({ stdout: '', stderr });
  });

  it('no command imports main.ts back, and only command.ts names the exit codes', () => {
    const dir = new URL('.', import.meta.url);
    const sources = readdirSync(dir).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    for (const file of sources) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      if (file !== 'packaged.ts') expect(text, file).not.toMatch(/from '\.\/main'/);
      if (file !== 'command.ts') expect(text, file).not.toMatch(/\bconst EXIT_\w+ =/);
      // A command returns a named exit status, never a bare number.
      if (/from '\.\/command'/.test(text)) expect(text, file).not.toMatch(/return [0-9];|\? [0-9] : [0-9]\b/);
    }
  });
});
