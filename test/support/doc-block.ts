import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root: doc paths are relative to it (`docs/drivers/playwright-mcp.md`). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The text of a markdown file of the checkout, by its path from the root. */
export function docText(file: string): string {
  return readFileSync(path.join(REPO_ROOT, file), 'utf8');
}

/**
 * The body of the one fenced block in `lang` of the doc file `file` that contains `marker`, without the
 * indentation of its fence (a block inside a list item): tests run what the docs show (a shell command,
 * a config file, a query) rather than a copy of it. Throws unless exactly one block matches.
 */
export function docBlock(file: string, lang: string, marker: string): string {
  const blocks = [...docText(file).matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)].filter(([, , l, body]) => l === lang && body!.includes(marker));
  if (blocks.length !== 1) throw new Error(`${file} has ${blocks.length} \`\`\`${lang} blocks containing ${JSON.stringify(marker)}, expected 1`);
  const [, indent = '', , body = ''] = blocks[0]!;
  return body
    .split('\n')
    .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
    .join('\n');
}

/** A shell command of the docs as argv: continuation lines joined, split on blanks (no quoting in it). */
export function shellWords(command: string): string[] {
  return command.replace(/\\\n/g, ' ').trim().split(/\s+/);
}
