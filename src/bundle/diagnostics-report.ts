import type { Diagnostics } from '../../schemas/diagnostics';
import type { PageSnapshot, SnapshotNode } from '../../schemas/snapshot';
import type { Step } from '../../schemas/steps';

/** How many console errors and failed requests the diagnostics list. */
export const DIAGNOSTICS_LIST_LIMIT = 20;

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

/** The last failed requests and HTTP error responses, oldest first. */
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
