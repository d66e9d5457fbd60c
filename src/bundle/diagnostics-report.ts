import type { Diagnostics } from '../../schemas/diagnostics';
import type { PageSnapshot, SnapshotNode } from '../../schemas/snapshot';
import type { Step } from '../../schemas/steps';
import type { FrameMeta } from '../ring/ports';

/** How many console errors and failed requests the diagnostics list. */
export const DIAGNOSTICS_LIST_LIMIT = 20;
/** How many other tabs, and how many of each one's last steps, the diagnostics list. */
export const OTHER_TABS_LIMIT = 10;
export const OTHER_TAB_STEPS = 5;

const iso = (ts: number) => new Date(ts).toISOString();
const signals = (steps: readonly Step[]) => steps.filter((s) => s.kind === 'signal' && s.detail?.signal_kind);

/** Every signal in the window, oldest first: what led to the failure. */
export function signalChain(steps: readonly Step[]): Diagnostics['signal_chain'] {
  return signals(steps).map((s) => ({
    at: iso(s.ts),
    kind: s.detail!.signal_kind!,
    disposition: s.detail!.disposition ?? 'record',
    reason: s.action.replace(/^(failure|signal): /, ''),
    message: s.detail!.message ?? s.label,
  }));
}

/** The last console errors, oldest first. */
export function consoleErrors(steps: readonly Step[], limit = DIAGNOSTICS_LIST_LIMIT): Diagnostics['console_errors'] {
  return signals(steps)
    .filter((s) => s.detail!.signal_kind === 'console_error')
    .slice(-limit)
    .map((s) => ({ at: iso(s.ts), message: s.detail!.message ?? s.label ?? '', url: s.url }));
}

/** The last failed requests, HTTP error responses and 2xx answers that said they failed (`app_error`, with their excerpt), oldest first. */
export function failedRequests(steps: readonly Step[], limit = DIAGNOSTICS_LIST_LIMIT): Diagnostics['failed_requests'] {
  return signals(steps)
    .filter((s) => s.detail!.request_url !== undefined)
    .slice(-limit)
    .map((s) => {
      const d = s.detail!;
      return {
        at: iso(s.ts),
        url: d.request_url!,
        method: d.method ?? null,
        status: d.status ?? null,
        resource_type: d.resource_type ?? null,
        duration_ms: d.duration_ms ?? null,
        error_text: d.error_text ?? null,
        ...(d.request_id !== undefined ? { request_id: d.request_id } : {}),
        ...(d.excerpt !== undefined ? { excerpt: d.excerpt } : {}),
      };
    });
}

/** DOM size and shape from the snapshot tree. */
export function pageMetrics(snapshot: PageSnapshot | null): Diagnostics['page_metrics'] {
  if (!snapshot) return null;
  let maxDepth = 0;
  let frames = 0;
  let shadowRoots = 0;
  const walk = (node: SnapshotNode, depth: number) => {
    maxDepth = Math.max(maxDepth, depth);
    if (node.frame) frames++;
    if (node.shadow_root) shadowRoots++;
    for (const child of node.children ?? []) walk(child, depth + 1);
  };
  walk(snapshot.root, 1);
  return {
    dom_nodes: snapshot.node_count,
    max_depth: maxDepth,
    frames,
    shadow_roots: shadowRoots,
    snapshot_truncated: snapshot.truncated,
    viewport: snapshot.viewport,
  };
}

/**
 * What the other tabs did in the window: steps, signals and frames of every tab but `tabId`, most
 * recently active first. `steps` and `frames` are everything recorded in the window, any tab.
 */
export function otherTabsActivity(
  tabId: number | null,
  steps: readonly Step[],
  frames: readonly Pick<FrameMeta, 'tabId' | 'ts' | 'url'>[],
): NonNullable<Diagnostics['other_tabs']> {
  interface Activity {
    steps: Step[];
    frames: number;
    last: number;
    url: string | null;
    urlAt: number;
  }
  const tabs = new Map<number, Activity>();
  const seen = (id: number, ts: number, url: string | null) => {
    let tab = tabs.get(id);
    if (!tab) tabs.set(id, (tab = { steps: [], frames: 0, last: ts, url, urlAt: ts }));
    tab.last = Math.max(tab.last, ts);
    if (url !== null && ts >= tab.urlAt) {
      tab.url = url;
      tab.urlAt = ts;
    }
    return tab;
  };
  for (const step of steps) if (step.tab_id !== null && step.tab_id !== tabId) seen(step.tab_id, step.ts, step.url).steps.push(step);
  for (const frame of frames) if (frame.tabId !== tabId) seen(frame.tabId, frame.ts, frame.url).frames++;
  return [...tabs]
    .sort(([, a], [, b]) => b.last - a.last)
    .slice(0, OTHER_TABS_LIMIT)
    .map(([id, tab]) => ({
      tab_id: id,
      url: tab.url,
      steps: tab.steps.length,
      signals: signals(tab.steps).length,
      frames: tab.frames,
      last_activity_at: iso(tab.last),
      last_steps: tab.steps.slice(-OTHER_TAB_STEPS).map((s) => ({ at: iso(s.ts), kind: s.kind, action: s.action, label: s.label })),
    }));
}
