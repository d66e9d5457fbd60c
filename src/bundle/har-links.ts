import type { HarFile } from '../../schemas/network';
import type { Step } from '../../schemas/steps';

/**
 * The steps with each network signal linked to its request in `network.har`: `detail.har_entry`, the
 * index of the entry carrying the step's `request_id`. The hops of a redirect share one id: the step
 * names the hop that answered its status (a 4xx, the 2xx that said it failed), else the last one. A
 * step whose request is not in the HAR (past the window, dropped by the log's bounds) stays unlinked.
 */
export function linkHarEntries(steps: readonly Step[], har: HarFile | null): Step[] {
  if (!har || !steps.some((s) => s.detail?.request_id)) return [...steps];
  const byId = new Map<string, number[]>();
  har.log.entries.forEach((e, i) => {
    if (e._requestId === undefined) return;
    const list = byId.get(e._requestId) ?? [];
    list.push(i);
    byId.set(e._requestId, list);
  });
  const entries = har.log.entries;
  return steps.map((step) => {
    const detail = step.detail;
    const hops = detail?.request_id ? byId.get(detail.request_id) : undefined;
    if (!detail || !hops) return step;
    const answered = detail.status === undefined ? undefined : hops.findLast((i) => entries[i]!.response.status === detail.status);
    return { ...step, detail: { ...detail, har_entry: answered ?? hops.at(-1)! } };
  });
}
