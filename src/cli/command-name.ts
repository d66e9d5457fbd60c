import path from 'node:path';

/** What naming this command line needs to know of where it runs (`node-files.ts` has the real one). */
export interface CommandSurroundings {
  /** The script Node runs (`process.argv[1]`). */
  script: string | undefined;
  /** The folders of `PATH`, in order. */
  pathDirs: readonly string[];
  /** The file a path names, links followed (`realpath`), or null when it names none. */
  realpath(file: string): string | null;
}

/** The names the package gives this command line (package.json `bin`). */
const BIN_NAMES = ['afr', 'agent-flight-recorder'] as const;

/** npx and npm scripts put the project's `node_modules/.bin` on PATH for what they run, not in the user's shell. */
const NPM_BIN = /[\\/]node_modules[\\/]\.bin[\\/]?$/;

/**
 * How a person runs this command line again from their shell, for the hints it prints: its name when
 * that name on PATH is this very file (a global install, a link), else `npx afr` (a checkout or a
 * project's dependency, where `afr` is not on PATH but `npx` finds it, even when npx ran this one).
 * @example commandName({ script: '/repo/bin/afr.mjs', pathDirs: ['/usr/bin'], realpath }) // 'npx afr'
 */
export function commandName(surroundings: CommandSurroundings): string {
  const { script, pathDirs, realpath } = surroundings;
  const self = script === undefined ? null : realpath(script);
  if (self === null) return 'npx afr';
  const dirs = pathDirs.filter((dir) => dir !== '' && !NPM_BIN.test(dir));
  for (const name of BIN_NAMES) {
    // The shell runs the first one it finds: another tool called afr earlier on PATH wins over this one.
    const found = dirs.map((dir) => realpath(path.join(dir, name))).find((file) => file !== null);
    if (found === self) return name;
  }
  return 'npx afr';
}
