import { describe, expect, it } from 'vitest';
import { commandName } from './command-name';

/** A file system of links: each path to the file it names (itself for a plain file). */
const files = (links: Record<string, string>) => (file: string) => links[file] ?? null;
const SCRIPT = '/home/me/afr/bin/afr.mjs';

describe('commandName', () => {
  it.each<[string, string | undefined, string[], Record<string, string>, string]>([
    ['a checkout, afr on no PATH folder', SCRIPT, ['/usr/local/bin', '/usr/bin'], { [SCRIPT]: SCRIPT }, 'npx afr'],
    ['a global install: afr on PATH links to this script', '/usr/lib/node_modules/agent-flight-recorder/bin/afr.mjs', ['/usr/local/bin', '/usr/bin'], {
      '/usr/lib/node_modules/agent-flight-recorder/bin/afr.mjs': '/usr/lib/node_modules/agent-flight-recorder/bin/afr.mjs',
      '/usr/bin/afr': '/usr/lib/node_modules/agent-flight-recorder/bin/afr.mjs',
    }, 'afr'],
    ['run through a link named on the command line', '/usr/bin/afr', ['/usr/bin'], { '/usr/bin/afr': SCRIPT }, 'afr'],
    ['npx: only the project’s node_modules/.bin has afr', SCRIPT, ['/home/me/afr/node_modules/.bin', '/usr/bin'], { [SCRIPT]: SCRIPT, '/home/me/afr/node_modules/.bin/afr': SCRIPT }, 'npx afr'],
    ['another afr earlier on PATH', SCRIPT, ['/opt/other/bin', '/usr/bin'], { [SCRIPT]: SCRIPT, '/opt/other/bin/afr': '/opt/other/bin/afr', '/usr/bin/afr': SCRIPT }, 'npx afr'],
    ['the packaged bin under its long name', '/pkg/dist/cli/afr.js', ['', '/usr/bin'], {
      '/pkg/dist/cli/afr.js': '/pkg/dist/cli/afr.js',
      '/usr/bin/afr': '/pkg/bin/afr.mjs',
      '/usr/bin/agent-flight-recorder': '/pkg/dist/cli/afr.js',
    }, 'agent-flight-recorder'],
    ['no script (a REPL)', undefined, ['/usr/bin'], { '/usr/bin/afr': SCRIPT }, 'npx afr'],
  ])('%s: %s', (_case, script, pathDirs, links, name) => {
    expect(commandName({ script, pathDirs, realpath: files(links) })).toBe(name);
  });
});
