import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from './launch';

/**
 * The body of the README's one fenced block in `lang` that contains `marker`: tests run what the README
 * shows (a shell command, a config file) rather than a copy of it. Throws unless exactly one block matches.
 */
export function readmeBlock(lang: string, marker: string): string {
  const readme = readFileSync(path.join(ROOT_DIR, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].filter(([, l, body]) => l === lang && body!.includes(marker));
  if (blocks.length !== 1) throw new Error(`README.md has ${blocks.length} \`\`\`${lang} blocks containing ${JSON.stringify(marker)}, expected 1`);
  return blocks[0]![2]!;
}

/** A README shell command as argv: continuation lines joined, split on blanks (no quoting in it). */
export function shellWords(command: string): string[] {
  return command.replace(/\\\n/g, ' ').trim().split(/\s+/);
}
