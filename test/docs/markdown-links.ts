import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Folders never searched for markdown: dependencies, build output, test output. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'bundles', 'test-results', 'playwright-report']);

/** Every `.md` file under `root`, as paths relative to it (hidden folders and build output left out). */
export function markdownFiles(root: string, dir = ''): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name) ? [] : markdownFiles(root, rel);
    return entry.name.endsWith('.md') ? [rel] : [];
  });
}

/** The lines of a markdown text outside fenced code blocks, with inline code spans blanked out. */
function proseLines(text: string): string[] {
  let fence: string | null = null;
  return text.split('\n').map((line) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      return '';
    }
    return fence === null ? line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length)) : '';
  });
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image reads as its text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/`/g, '')
    .replace(/\*+/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of every heading of a markdown text, a repeated one numbered as GitHub does (`-1`, `-2`). */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) fence = fence === null ? marker : null;
    const heading = fence === null ? /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1] : undefined;
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The link targets of a markdown text (inline links and images, reference definitions), outside code. */
export function linkTargets(text: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(text)) {
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]!);
    const definition = /^ {0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (definition) targets.push(definition[1]!);
  }
  return targets;
}

/**
 * Every relative link of the markdown file `file` (a path under `root`) that points nowhere: a file or
 * folder that does not exist, or a `#anchor` that names no heading of the markdown file it points into.
 * Links with a scheme (`https:`, `mailto:`, `chrome-extension:`) are not checked.
 */
export function brokenLinks(root: string, file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const problems: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [rawPath = '', anchor] = target.split('#', 2);
    const linked = rawPath === '' ? file : path.join(path.dirname(file), decodeURIComponent(rawPath));
    if (linked.startsWith('..') || !existsSync(path.join(root, linked))) {
      problems.push(`${file}: ${target}: no such file ${linked}`);
      continue;
    }
    if (anchor === undefined || !linked.endsWith('.md')) continue;
    const anchors = headingAnchors(readFileSync(path.join(root, linked), 'utf8'));
    if (!anchors.has(decodeURIComponent(anchor))) problems.push(`${file}: ${target}: ${linked} has no heading #${anchor}`);
  }
  return problems;
}
