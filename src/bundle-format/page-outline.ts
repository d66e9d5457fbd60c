import type { PageSnapshot } from '../../schemas/snapshot';
import type { Step } from '../../schemas/steps';
import type { StepSnapshotFile } from '../../schemas/timeline';
import { SNAPSHOT_FILE } from './file-names';
import { describeElement, isBareWrapper, TARGET_MARK, type OutlineElement } from './outline-line';
import { code, failingRequestLine } from './summary-md';

/** What an outline reads of a node: a `snapshot.json` node or a rebuilt timeline node (with its id). */
export interface OutlineNode extends OutlineElement {
  id?: number;
  children?: OutlineNode[];
}

/** About 4,000 tokens for a whole `outline.md`. */
export const OUTLINE_MAX_CHARS = 16_000;

/**
 * A compact indented outline of a page: one line per element that says something (`outline-line.ts`:
 * role, name, states, value, text), wrappers folded away, the target marked, at most `maxChars`
 * characters (what is left out is counted). Page text is quoted on one line and already masked.
 * @example outlinePage(snapshot.root, { target: 42 }) // "- form #checkout\n  - textbox \"Email\" value withheld (email)\n…"
 */
export function outlinePage(root: OutlineNode, { target, maxChars = OUTLINE_MAX_CHARS / 2 }: { target?: number; maxChars?: number } = {}): string {
  const lines: string[] = [];
  let used = 0;
  let left = 0;
  const stack: { node: OutlineNode; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    let childDepth = depth;
    if (!isBareWrapper(node)) {
      const line = `${'  '.repeat(Math.min(depth, 20))}- ${describeElement(node, 'compact')}${target !== undefined && node.id === target ? `  ${TARGET_MARK}` : ''}`;
      if (used + line.length + 1 > maxChars) left++;
      else {
        lines.push(line);
        used += line.length + 1;
      }
      childDepth = depth + 1;
    }
    const kids = node.children ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i]!, depth: childDepth });
  }
  if (left) lines.push(`… ${left} more element${left === 1 ? '' : 's'} left out (the outline is capped at ${maxChars} characters)`);
  return lines.join('\n');
}

/** A fenced block the text cannot close: the fence is longer than any run of backticks in it. */
function fenced(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (run) => run[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text}\n${fence}`;
}

/** A file name the recorder wrote (`snapshots/page-003.json`) as it is; a name from an edited bundle as a code span. */
const fileWord = (file: string): string => (/^[\w./-]{1,80}$/.test(file) ? file : code(file, 80));

/** The page at one moment, as `outline.md` shows it. */
export interface OutlinedPage {
  url: string;
  root: OutlineNode;
  /** The file the page comes from (`snapshot.json`, `snapshots/page-003.json`). */
  file: string;
  truncated: boolean;
}

/**
 * `outline.md`: the last failing request (when the steps name one), the page at the failure and at
 * the last action (the target marked), each as an outline, about 4,000 tokens in all, for a model to
 * read the failure without parsing JSON.
 */
export function renderOutline(failure: OutlinedPage | null, lastAction: { step: Step; page: OutlinedPage } | null, failingRequest: string | null = null): string {
  const out = ['# Page outline', '', 'Roles (or tags), accessible names, text, values and states; sensitive values withheld.', ''];
  if (failingRequest) out.push(`Last failing request: ${failingRequest}`, '');
  const half = Math.floor((OUTLINE_MAX_CHARS - 400) / 2);
  const section = (title: string, page: OutlinedPage, target?: number) => {
    out.push(`## ${title}`, '', `${code(page.url, 300)} (${fileWord(page.file)}${page.truncated ? ', truncated' : ''})`, '', fenced(outlinePage(page.root, { target, maxChars: half })), '');
  };
  if (failure) section('At the failure', failure);
  else out.push('## At the failure', '', '(no snapshot of the page at the failure)', '');
  if (lastAction) {
    const t = lastAction.step.target;
    const node = t && typeof t === 'object' ? t.node : undefined;
    section(`At the last action: ${code(lastAction.step.action, 80)}`, lastAction.page, node);
  }
  return out.join('\n');
}

/** The step whose page `outline.md` shows as "the last action": the last one with a page that is not a signal or a navigation. */
export function lastActionStep(steps: readonly Step[]): Step | undefined {
  return [...steps].reverse().find((s) => s.snapshot && s.kind !== 'signal' && s.kind !== 'navigate');
}

/**
 * `outline.md` from a bundle's own data: the failure page (`snapshot.json`'s snapshot, null when it has
 * none) and the last action's page among `pages` (the `snapshots/` files by zip path). The recorder
 * writes it this way, and `afr redact` rebuilds it this way from the masked files.
 */
export function outlineBundle(failure: PageSnapshot | null, steps: readonly Step[], pages: ReadonlyMap<string, StepSnapshotFile>): string {
  const failurePage = failure ? { url: failure.url, root: failure.root, file: SNAPSHOT_FILE, truncated: failure.truncated } : null;
  const step = lastActionStep(steps);
  const file = step?.snapshot ? pages.get(step.snapshot) : undefined;
  const lastAction = step && file ? { step, page: { url: file.snapshot.url, root: file.snapshot.root, file: step.snapshot!, truncated: file.snapshot.truncated } } : null;
  return renderOutline(failurePage, lastAction, failingRequestLine(steps));
}
