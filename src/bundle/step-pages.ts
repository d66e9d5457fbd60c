import { LEAVE_PAGE_LABEL } from '../../schemas/content-port';
import type { Step } from '../../schemas/steps';
import { STEP_SNAPSHOT_FILE_VERSION, type StepSnapshotFile, type TimelineData, type TimelineSnapshot } from '../../schemas/timeline';
import { stepSnapshotFileName } from '../bundle-format/file-names';
import { describeDiff } from '../timeline/data/describe-diff';
import { diffSnapshots } from '../timeline/data/diff';
import { rebuildAll } from '../timeline/data/rebuild';
import { checkpointAtStep } from './step-page-time';

/** The pages of a bundle: the files of `snapshots/`, the steps naming them, `snapshot.json`'s `previous`. */
export interface StepPages {
  files: { name: string; file: StepSnapshotFile }[];
  /** The steps given, those with a page gaining `snapshot` and `changes`. */
  steps: Step[];
  /** The last page of the document before the failure page, when that is a fresh document. */
  previous?: string;
  /** Pages left out, the oldest first, past `maxChars`. */
  leftOut: number;
}

/**
 * Most characters of pages (their trees as JSON) a bundle holds: a big page shown at many steps could
 * otherwise make a bundle of hundreds of MiB. The newest pages are kept.
 */
export const MAX_STEP_PAGES_CHARS = 48 * 1024 * 1024;

/** One rebuilt checkpoint, in time order over the tab's documents. */
interface Point {
  doc: TimelineData;
  page: TimelineSnapshot;
  /** The document's last checkpoint. */
  last: boolean;
}

const pointKey = (documentId: string, seq: number) => `${documentId}#${seq}`;

/**
 * Lays out the pages at each step from the tab's DOM timeline (its documents, oldest first): every
 * step with a checkpoint names the file of its page, rebuilt whole, and what changed from it to the
 * next different page seen (the diff and its plain words). Identical pages are written once; the last
 * page of each document is written too, so the page a navigation replaced is there. Past `maxChars`
 * the oldest pages are left out (counted in `leftOut`).
 */
export function layOutStepPages(bundleId: string, documents: readonly TimelineData[], steps: readonly Step[], maxChars = MAX_STEP_PAGES_CHARS): StepPages {
  const points: Point[] = [];
  const index = new Map<string, number>();
  for (const doc of documents) {
    const pages = rebuildAll(doc);
    pages.forEach((page, i) => {
      index.set(pointKey(doc.document_id, page.checkpoint), points.length);
      points.push({ doc, page, last: i === pages.length - 1 });
    });
  }

  /** One key per distinct page: the same page at two checkpoints of a document, or the same content in two. */
  const keys = new Map<string, string>();
  const keyOf = (point: Point): string => {
    const { page } = point;
    const samePageKey = `${page.document_id}|${page.changes}|${page.url}|${page.title}`;
    let key = keys.get(samePageKey);
    if (key === undefined) {
      key = `${page.url}|${page.title}|${JSON.stringify(page.root)}`;
      keys.set(samePageKey, key);
    }
    return key;
  };
  /** The first point after `i` showing another page: what the step at `i` led to. */
  const nextPage = (i: number): number | null => {
    const from = keyOf(points[i]!);
    for (let j = i + 1; j < points.length; j++) if (keyOf(points[j]!) !== from) return j;
    return null;
  };

  // The pages written: the steps', the pages they led to, and each document's last; named in time order.
  // A step's page is the page at its time: a checkpoint taken after the page had changed names none.
  const docs = new Map(documents.map((doc) => [doc.document_id, doc]));
  const stepAt = steps.map((step) => {
    const doc = step.checkpoint && docs.get(step.checkpoint.document_id);
    if (!step.checkpoint || !doc) return undefined;
    const seq = checkpointAtStep(doc, step.checkpoint.seq, step.ts);
    return seq === null ? undefined : index.get(pointKey(doc.document_id, seq));
  });
  const needed = new Set<number>();
  stepAt.forEach((at) => {
    if (at === undefined) return;
    needed.add(at);
    const next = nextPage(at);
    if (next !== null) needed.add(next);
  });
  points.forEach((point, i) => point.last && needed.add(i));
  // The newest pages first, within the budget: an older page past it is left out (its steps name none).
  const kept = new Map<string, number>();
  let chars = 0;
  let leftOut = 0;
  for (const i of [...needed].sort((a, b) => b - a)) {
    const key = keyOf(points[i]!);
    if (kept.has(key)) {
      kept.set(key, i);
      continue;
    }
    if (chars + key.length > maxChars) {
      leftOut++;
      continue;
    }
    chars += key.length;
    kept.set(key, i);
  }
  const names = new Map<string, string>();
  const files: StepPages['files'] = [];
  for (const i of [...new Set(kept.values())].sort((a, b) => a - b)) {
    const name = stepSnapshotFileName(files.length);
    names.set(keyOf(points[i]!), name);
    files.push({ name, file: { version: STEP_SNAPSHOT_FILE_VERSION, bundle_id: bundleId, snapshot: points[i]!.page } });
  }
  const fileOf = (point: Point): string | undefined => names.get(keyOf(point));

  // A change is told once, at the step that caused it: the last step shown the page before it. The
  // steps before that one on the same page changed nothing before the next step. A form's `submit`
  // is the form answering the click or key just before it: that action tells the change.
  const transition = (at: number): string => {
    const next = nextPage(at);
    return `${keyOf(points[at]!)}\u0000${next === null ? '' : keyOf(points[next]!)}`;
  };
  const lastOnPage = new Map<string, number>();
  stepAt.forEach((at, s) => {
    if (at === undefined) return;
    const key = transition(at);
    const told = lastOnPage.get(key);
    if (told === undefined || steps[s]!.kind !== 'submit') lastOnPage.set(key, s);
  });
  const out = steps.map((step, s): Step => {
    const at = stepAt[s];
    if (at === undefined) return step;
    const point = points[at]!;
    const file = fileOf(point);
    if (!file) return step;
    const withPage: Step = { ...step, snapshot: file };
    if (lastOnPage.get(transition(at)) !== s) {
      const diff = diffSnapshots(point.page, point.page);
      withPage.changes = { to: file, description: describeDiff(diff), diff };
      return withPage;
    }
    const next = nextPage(at);
    const to = next === null ? undefined : fileOf(points[next]!);
    if (next !== null && to) {
      const diff = diffSnapshots(point.page, points[next]!.page);
      withPage.changes = { to, description: describeDiff(diff), diff };
    }
    return withPage;
  });
  const previous = previousPage(points, out, fileOf);
  return { files, steps: out, leftOut, ...(previous ? { previous } : {}) };
}

/**
 * The failure page is a fresh document when the tab's last document was left (its last checkpoint
 * is `pagehide`'s), or when no step happened in it and a document came before: then the last page
 * of the document before it.
 */
function previousPage(points: readonly Point[], steps: readonly Step[], fileOf: (p: Point) => string | undefined): string | undefined {
  const lastPoint = points.at(-1);
  if (!lastPoint) return undefined;
  if (lastPoint.page.label === LEAVE_PAGE_LABEL) return fileOf(lastPoint);
  const lastDoc = lastPoint.doc.document_id;
  if (steps.some((s) => s.checkpoint?.document_id === lastDoc)) return undefined;
  const before = points.filter((p) => p.doc.document_id !== lastDoc && p.last).at(-1);
  return before ? fileOf(before) : undefined;
}
