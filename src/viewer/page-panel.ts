import type { SnapshotFile } from '../../schemas/snapshot';
import type { Step } from '../../schemas/steps';
import type { StepSnapshotFile } from '../../schemas/timeline';
import { pageLateness, stepLabel } from '../bundle-format/story';
import { renderChanges } from './changes-view';
import { append, h, shownText, type Child } from './dom';
import { describeTarget, formatDateTime } from './format';
import type { StepPageRead } from './step-pages';
import { renderTree, type TreeNode } from './snapshot-tree';

export type PageTab = 'dom' | 'changes';

export interface PagePanel {
  element: HTMLElement;
  /** Shows the page at `step`, at `index` in `steps.json` (its own snapshot, else the page at the failure); null: the failure. */
  showStep(step: Step | null, index?: number): void;
  showTab(tab: PageTab): void;
}

/** The node a step acted on, in its page: the timeline id `steps.json` gives for its target. */
const targetNodeOf = (step: Step | null): number | undefined => (step && typeof step.target === 'object' && step.target !== null ? step.target.node : undefined);

/** `step #16: click button "Place order" #place-order`, numbered as every reader numbers it. */
function stepCaption(step: Step, index: number): string {
  const target = describeTarget(step.target);
  return `step ${stepLabel(index)}: ${step.action}${target ? ` ${target}` : ''}`;
}

/** What the panel shows on its DOM tab: a tree with its facts, or why there is none. */
interface PageView {
  caption: string;
  notes: Child[];
  facts: string[];
  tree: { root: TreeNode; target?: number } | null;
  /** Shown in place of the tree when there is none. */
  empty: string | null;
}

function failureView(file: SnapshotFile | null): PageView {
  const snapshot = file?.snapshot ?? null;
  if (snapshot === null) {
    const why = file === null ? 'this bundle has no snapshot.json (capture level metadata)' : (file.error ?? 'unknown reason');
    return { caption: 'at the failure', notes: [], facts: [], tree: null, empty: `No DOM snapshot: ${why}` };
  }
  const redactedFields = Object.values(snapshot.redaction.fields).reduce((sum, n) => sum + (n ?? 0), 0);
  return {
    caption: 'at the failure',
    notes: [],
    facts: [
      `${snapshot.node_count} nodes${snapshot.truncated ? ' (truncated)' : ''} \u00B7 ${redactedFields} redacted fields`,
      snapshot.title || '(no title)',
      snapshot.url,
      `viewport ${snapshot.viewport.width}\u00D7${snapshot.viewport.height}, scrolled ${snapshot.viewport.scroll_x},${snapshot.viewport.scroll_y}`,
      `taken ${formatDateTime(snapshot.taken_at)}`,
    ],
    tree: { root: snapshot.root },
    empty: null,
  };
}

/** Says so when the step's page was taken late (`bundle-format/story.ts`): it still is the page at the step. */
function lateNote(step: Step | null, file: StepSnapshotFile): string | null {
  const late = step === null ? null : pageLateness(step.ts, file.snapshot.at);
  return late === null ? null : `This page was taken ${(late / 1000).toFixed(1)} s after the step; nothing on it changed in between.`;
}

function stepPageView(caption: string, file: StepSnapshotFile, target: number | undefined, step: Step | null = null): PageView {
  const page = file.snapshot;
  const late = lateNote(step, file);
  return {
    caption,
    notes: late === null ? [] : [late],
    facts: [
      `${page.node_count} nodes${page.truncated ? ' (truncated)' : ''}`,
      page.title || '(no title)',
      page.url,
      `checkpoint ${page.checkpoint}: ${page.label}`,
      `taken ${formatDateTime(page.at)}`,
    ],
    tree: { root: page.root, target },
    empty: null,
  };
}

/**
 * The page panel: the DOM tree as it was at the selected step, its target marked and scrolled into
 * view (the page at the failure when no step is selected, or the step has no page of its own), and a
 * "changes" tab with what the step changed. Step pages are read when their step is shown.
 */
export function renderPagePanel(failure: SnapshotFile | null, readStepPage: ((name: string) => StepPageRead) | undefined): PagePanel {
  const caption = h('span', { className: 'afr-count', data: { testid: 'page-caption' } });
  const tabButton = (tab: PageTab, label: string) =>
    h('button', { className: 'afr-tab', attrs: { type: 'button', role: 'tab' }, data: { testid: `tab-${tab}` }, on: { click: () => showTab(tab) } }, label);
  const tabs = { dom: tabButton('dom', 'DOM'), changes: tabButton('changes', 'Changes') };
  const tools = h('span', { className: 'afr-tree-tools' });
  const body = h('div', { className: 'afr-page-body' });
  const element = h(
    'section',
    { className: 'afr-panel afr-snapshot', data: { testid: 'snapshot' } },
    h('h2', null, h('span', { className: 'afr-tabs', attrs: { role: 'tablist' } }, tabs.dom, tabs.changes), caption, tools),
    body,
  );

  let step: Step | null = null;
  let stepIndex = -1;
  const captionOf = (s: Step) => stepCaption(s, stepIndex);
  let tab: PageTab = 'dom';
  // The page before the navigation that ended the run, when the failure page is a fresh document.
  let showPrevious = false;

  /** The failure's own step: its page is the one snapshot.json holds. */
  const isFailureStep = (s: Step) => s.snapshot === undefined && s.kind === 'signal' && s.outcome === 'fail';
  /** The page at the failure is shown: no step selected, or the failure's own step (where the viewer opens). */
  const atFailure = () => step === null || isFailureStep(step);

  const viewOf = (): PageView => {
    if (atFailure() && showPrevious && failure?.previous) {
      const read = readStepPage?.(failure.previous);
      if (read?.ok) return stepPageView('before the navigation to the failure page', read.file, undefined);
    }
    if (step === null) return failureView(failure);
    if (isFailureStep(step)) return { ...failureView(failure), caption: `at the failure (${captionOf(step)})` };
    if (step.snapshot === undefined) {
      const view = failureView(failure);
      return { ...view, notes: [`This step has no page of its own (no DOM timeline at it, or none taken before the page changed); showing the page at the failure.`] };
    }
    const read = readStepPage?.(step.snapshot) ?? { ok: false, error: 'this viewer cannot read the step pages' };
    if (read.ok) return stepPageView(`at ${captionOf(step)}`, read.file, targetNodeOf(step), step);
    return { ...failureView(failure), notes: [`The page at this step cannot be shown (${read.error}); showing the page at the failure.`] };
  };

  const togglePrevious = () => {
    showPrevious = !showPrevious;
    render();
  };

  const renderDom = () => {
    const view = viewOf();
    caption.textContent = shownText(view.caption);
    const previousButton =
      atFailure() && failure?.previous && readStepPage
        ? h(
            'button',
            { className: 'afr-small', attrs: { type: 'button' }, data: { testid: 'show-previous' }, on: { click: togglePrevious } },
            showPrevious ? 'show the failure page' : 'show the page before the navigation',
          )
        : null;
    const rendered = view.tree ? renderTree(view.tree.root, view.tree.target) : null;
    tools.replaceChildren();
    append(tools, ...(rendered?.buttons ?? []), previousButton);
    const targetNote =
      view.tree?.target !== undefined && rendered?.targetLine === null ? `The step's target (node ${view.tree.target}) is not in this page (left out by truncation?).` : null;
    body.replaceChildren();
    append(
      body,
      ...[...view.notes, targetNote].map((note) => (note ? h('p', { className: 'afr-note' }, note) : null)),
      view.facts.length ? h('div', { className: 'afr-snapshot-facts' }, ...view.facts.map((fact, i) => h('span', { className: i === 2 ? 'afr-url' : '' }, fact))) : null,
      rendered?.element ?? h('p', { className: 'afr-empty' }, view.empty ?? ''),
    );
    rendered?.revealTarget();
  };

  const renderChangesTab = () => {
    caption.textContent = step === null ? 'select a step' : shownText(`after ${captionOf(step)}`);
    tools.replaceChildren();
    const reason = step === null ? 'Select a step in the timeline to see what it changed on the page.' : 'No changes were recorded for this step (no DOM timeline at it, or no later page to compare with).';
    body.replaceChildren(renderChanges(step?.changes, reason));
  };

  function render() {
    for (const [name, button] of Object.entries(tabs)) button.setAttribute('aria-selected', String(name === tab));
    if (tab === 'dom') renderDom();
    else renderChangesTab();
  }

  function showTab(next: PageTab) {
    tab = next;
    render();
  }

  render();
  return {
    element,
    showStep(next, index = -1) {
      step = next;
      stepIndex = index;
      showPrevious = false;
      render();
    },
    showTab,
  };
}
