import { frameOfStep, pageLateness, stepNumber } from '../bundle-format/story';
import { msFromFailure, stepLine, type StepLine } from '../bundle-format/views';
import { DEFAULT_DOM_OPTIONS, MAX_DOM_DEPTH, MAX_DOM_NODES, readDom } from './dom-outline';
import { BundleReadError } from './errors';
import { boundedValue } from './fields';
import type { BundleReader } from './open-bundle';
import { pageOf, type Page, type PageRequest } from './paging';
import type { ReadStep } from './read-schemas';

/** One step in a list: what happened, when, to what, and its frame. */
export interface StepView extends StepLine {
  /** The step's number in every reader: its 1-based position in `steps.json` (what `afr step` takes). */
  index: number;
  /** 1-based index of the step's frame, the screen at its time (`bundle-format/story.ts`; what `afr frame` takes); null without frames. */
  frame: number | null;
}

/** One step with everything the bundle holds about it. */
export interface StepDetailView extends StepView {
  url: string | null;
  goal: string | null;
  reasoning: string | null;
  synthetic: boolean;
  /** Structured facts (an assertion's values, a request's status…), as the bundle has them. */
  detail: Record<string, unknown> | null;
  /** The target's own fields (role, node id, box…) when it is an element. */
  target_detail: Record<string, unknown> | null;
  /** The page at this step, as a later recorder references it (`snapshot` of the step); null when absent. */
  snapshot: unknown;
  /** How late the step's page was taken (ms after the step; nothing on it changed in between), when it was (`bundle-format/story.ts`); else null. */
  page_late_ms: number | null;
  /** What changed in the page at this step (`changes` of the step: the next page, the words, the diff), bounded; null when absent. */
  changes: unknown;
  /** What changed, in plain words (`changes.description`); null when absent. */
  change: string | null;
  /** The element the action hit, as its page (`snapshot`) holds it: its outline id (`afr dom --step`), tag, role, name, selector. */
  target_node: { id: number; tag: string; role: string | null; name: string | null; selector: string | null } | null;
  /** A model or tool call's step: the call as `agent.json` holds it (input, output, messages, response…), bounded; else null. */
  call: Record<string, unknown> | null;
  /** The step's frame (the screen at its time, as `frame`), with its time; the name is kept for `--json` readers. */
  nearest_frame: { index: number; at_ms: number; name: string } | null;
}


function toView(reader: BundleReader, step: ReadStep, index: number): StepView {
  const frame = frameOfStep(reader.manifest.frames, step);
  return {
    index,
    ...stepLine(step, reader.failureTs),
    frame: frame < 0 ? null : frame + 1,
  };
}

/**
 * A page of the bundle's steps, oldest first.
 * @example listSteps(reader, { page: 2, pageSize: 20 }) // steps 21–40
 */
export async function listSteps(reader: BundleReader, request: PageRequest): Promise<Page<StepView>> {
  const steps = await reader.steps();
  const page = pageOf(steps, request);
  return { ...page, items: page.items.map((step, i) => toView(reader, step, page.first + i)) };
}

/** Step `index` (1-based); throws `BundleReadError` when the bundle has no such step. */
export async function readStep(reader: BundleReader, index: number): Promise<StepDetailView> {
  const steps = await reader.steps();
  const step = Number.isInteger(index) ? steps[index - 1] : undefined;
  if (!step || index < 1) throw new BundleReadError(`step ${index} is out of range: the bundle has ${steps.length} step${steps.length === 1 ? '' : 's'} (1 to ${steps.length})`, 'argument');
  const view = toView(reader, step, index);
  const frame = view.frame === null ? undefined : reader.manifest.frames[view.frame - 1];
  const { tag: _tag, selector: _selector, name: _name, ...targetDetail } = step.target !== null && typeof step.target === 'object' ? step.target : { tag: '', selector: '' };
  return {
    ...view,
    url: step.url ?? null,
    goal: step.goal ?? null,
    reasoning: step.reasoning ?? null,
    synthetic: step.synthetic === true,
    detail: step.detail ?? null,
    target_detail: Object.keys(targetDetail).length > 0 ? (boundedValue(targetDetail) as Record<string, unknown>) : null,
    snapshot: step.snapshot === undefined ? null : boundedValue(step.snapshot),
    page_late_ms: typeof step.snapshot === 'string' ? pageLateness(step.ts, (await reader.stepPage(step.snapshot).catch(() => null))?.snapshot.at) : null,
    changes: step.changes === undefined ? null : boundedValue(step.changes, 8000),
    change: changeWords(step.changes),
    target_node: await targetNode(reader, index),
    call: await callOf(reader, step),
    nearest_frame: frame && view.frame !== null ? { index: view.frame, at_ms: msFromFailure(reader.failureTs, frame.ts), name: frame.name } : null,
  };
}

/** The call a step points at in `agent.json`, each field bounded; null for another step, or one whose call is missing. */
async function callOf(reader: BundleReader, step: ReadStep): Promise<Record<string, unknown> | null> {
  if (!step.call) return null;
  const agent = await reader.agent().catch(() => null);
  const list = step.call.list === 'tool_calls' ? agent?.tool_calls : step.call.list === 'model_calls' ? agent?.model_calls : undefined;
  const entry = list?.find((c) => c.id === step.call!.id);
  return entry ? Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, boundedValue(value, 16_000)])) : null;
}

/** A step's change in plain words, bounded; null when it has none. */
export function changeWords(changes: unknown): string | null {
  if (typeof changes !== 'object' || changes === null) return null;
  const description = (changes as { description?: unknown }).description;
  return typeof description === 'string' ? description.slice(0, 1000) : null;
}

/** The step's target on its own page, through the page's outline (so its id is the one `afr dom --step` prints). */
async function targetNode(reader: BundleReader, index: number): Promise<StepDetailView['target_node']> {
  const view = await readDom(reader, { ...DEFAULT_DOM_OPTIONS, step: index, maxNodes: MAX_DOM_NODES, depth: MAX_DOM_DEPTH }).catch(() => null);
  if (!view || view.target === null) return null;
  const step = (await reader.steps())[index - 1];
  const selector = step && step.target !== null && typeof step.target === 'object' ? step.target.selector : null;
  const hit = view.nodes.find((n) => n.id === view.target);
  if (!hit) return { id: view.target, tag: '?', role: null, name: null, selector };
  return { id: hit.id, tag: hit.tag, role: hit.role, name: hit.name, selector };
}

/** The last `count` steps, oldest first, numbered as in the whole list. */
export async function lastSteps(reader: BundleReader, count: number): Promise<StepView[]> {
  const steps = await reader.steps();
  const first = Math.max(0, steps.length - count);
  return steps.slice(first).map((step, i) => toView(reader, step, stepNumber(first + i)));
}
