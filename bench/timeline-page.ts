/**
 * The page side of `bench/timeline.ts`, bundled by esbuild into an IIFE and injected into
 * Chromium: builds generated pages and times the DOM timeline there, on the page's main thread.
 */
import { snapshot as rrwebSnapshot } from 'rrweb-snapshot';
import { BUILT_IN_MASKER, createTextMasker } from '../src/redact/mask-text';
import { takeSnapshot } from '../src/snapshot/take-snapshot';
import { startTimeline } from '../src/timeline/page/timeline-recorder';
import { startTimelineInSlices } from '../src/timeline/page/sliced-start';
import { startPageTimeline } from '../src/timeline/page/page-timeline';
import { observeActions } from '../src/page/observe-actions';

/** ~20 elements: a product card with a form, a table, a list and a shadow root. */
function card(i: number): string {
  return `<section class="card"><h3>Product ${i}</h3>
    <form><label>Quantity <input name="qty-${i}"></label><button type="button">Add to cart</button></form>
    <table><tr><td>Price</td><td class="price">$${(10 + i).toFixed(2)}</td></tr><tr><td>Stock</td><td>${i % 40}</td></tr></table>
    <ul><li>Colour: blue</li><li>Size ${i % 12}</li><li>Ships in ${1 + (i % 5)} days</li></ul><x-badge></x-badge></section>`;
}

/** Replaces the document's body with a page of about `elements` elements; returns the real count. */
function buildPage(elements: number): number {
  document.body.innerHTML = `<main>${Array.from({ length: Math.ceil(elements / 20) }, (_, i) => card(i)).join('')}</main>`;
  for (const badge of document.querySelectorAll('x-badge')) {
    badge.attachShadow({ mode: 'open' }).innerHTML = '<span class="badge">new</span>';
  }
  return document.querySelectorAll('*').length + document.querySelectorAll('x-badge').length;
}

/** Rounds of `fullSnapshot` run before those counted. */
const WARM_UP_ROUNDS = 3;

const round = (ms: number) => Math.round(ms * 100) / 100;
const median = (xs: number[]) => round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);
const p95 = (xs: number[]) => round([...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!);
const time = (fn: () => void): number => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};

/**
 * Full snapshot costs, interleaved: the timeline's start, `takeSnapshot` (default cap and cap lifted) and
 * rrweb-snapshot 2.2.2's `snapshot()` (inputs masked, as rrweb's privacy-minded setups run it) over the same page.
 */
function fullSnapshot(elements: number, rounds: number) {
  const count = buildPage(elements);
  const timeline: number[] = [];
  const capped: number[] = [];
  const whole: number[] = [];
  const rrweb: number[] = [];
  let nodes = 0;
  let rrwebNodes = 0;
  // The first rounds warm every contender's code up (JIT) and are not counted. Each round masks with a
  // fresh masker, as a document's first snapshot does: nothing it remembers of earlier rounds helps.
  for (let r = -WARM_UP_ROUNDS; r < rounds; r++) {
    const counted = r >= 0;
    const t = time(() => {
      const rec = startTimeline(document, createTextMasker(), { bufferSeconds: 60 });
      nodes = rec.data().base.records.length;
      rec.stop();
    });
    const c = time(() => takeSnapshot(document, createTextMasker()));
    const w = time(() => takeSnapshot(document, createTextMasker(), { maxNodes: 1e6 }));
    const rr = time(() => {
      rrwebNodes = countRrwebElements(rrwebSnapshot(document, { maskAllInputs: true }));
    });
    if (!counted) continue;
    timeline.push(t);
    capped.push(c);
    whole.push(w);
    rrweb.push(rr);
  }
  return {
    elements: count,
    timeline_nodes: nodes,
    rrweb_elements: rrwebNodes,
    timeline_ms: median(timeline),
    take_snapshot_capped_ms: median(capped),
    take_snapshot_whole_ms: median(whole),
    rrweb_snapshot_ms: median(rrweb),
    timeline_vs_rrweb: Number((median(timeline) / median(rrweb)).toFixed(2)),
  };
}

/** Element nodes in an rrweb-snapshot tree (type 2), open shadow roots' children included: its coverage. */
function countRrwebElements(node: unknown): number {
  if (!node || typeof node !== 'object') return 0;
  const n = node as { type?: number; childNodes?: unknown[] };
  return (n.type === 2 ? 1 : 0) + (n.childNodes ?? []).reduce<number>((sum, child) => sum + countRrwebElements(child), 0);
}

/** The elements a step changes, looked up once per page (so the bench's own lookups stay out of the figures). */
interface StepTargets {
  prices: Element[];
  cards: Element[];
  lists: Element[];
  inputs: HTMLInputElement[];
}

function stepTargets(): StepTargets {
  const all = (selector: string) => Array.from(document.querySelectorAll(selector));
  return { prices: all('.price'), cards: all('section.card'), lists: all('ul'), inputs: all('input') as HTMLInputElement[] };
}

/** One agent step: fewer than 50 nodes change (prices, classes, a list item in and out, a typed value). */
function mutateStep(step: number, t: StepTargets): void {
  for (let i = 0; i < 10; i++) t.prices[(step * 10 + i) % t.prices.length]!.textContent = `$${(step + i).toFixed(2)}`;
  for (let i = 0; i < 5; i++) t.cards[(step * 5 + i) % t.cards.length]!.classList.toggle('selected');
  const list = t.lists[step % 50]!;
  const li = document.createElement('li');
  li.textContent = `Added at step ${step}`;
  list.append(li);
  if (list.children.length > 4) list.firstElementChild!.remove();
  const input = t.inputs[step % 100]!;
  input.value = String(step);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** The cost per step (mutations processed + checkpoint), and bytes stored per step. */
function perStep(elements: number, steps: number) {
  const count = buildPage(elements);
  const targets = stepTargets();
  const rec = startTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 3600 });
  const costs: number[] = [];
  const before = rec.data().bytes.entries;
  for (let s = 0; s < steps; s++) {
    mutateStep(s, targets);
    costs.push(time(() => rec.checkpoint(`step ${s}`)));
  }
  const after = rec.data().bytes.entries;
  rec.stop();
  return { elements: count, steps, median_ms: median(costs), p95_ms: p95(costs), max_ms: Math.max(...costs), bytes_per_step: Math.round((after - before) / steps) };
}

/**
 * Long tasks (PerformanceObserver `longtask`) while the timeline starts on a big page, in one task
 * (`startTimeline`) or in slices (`startTimelineInSlices`), then records steps.
 */
async function longTasks(elements: number, steps: number, sliced: boolean) {
  const count = buildPage(elements);
  const targets = stepTargets();
  const pause = () => new Promise((r) => setTimeout(r, 20));
  await pause();
  const seen: number[] = [];
  const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => seen.push(Math.round(e.duration))));
  observer.observe({ type: 'longtask', buffered: false });
  const t = performance.now();
  const rec = sliced
    ? await startTimelineInSlices(document, BUILT_IN_MASKER, { bufferSeconds: 60 })
    : startTimeline(document, BUILT_IN_MASKER, { bufferSeconds: 60 });
  const start = performance.now() - t;
  const costs: number[] = [];
  for (let s = 0; s < steps; s++) {
    await pause();
    mutateStep(s, targets);
    costs.push(time(() => rec.checkpoint(`step ${s}`)));
  }
  await pause();
  rec.stop();
  observer.disconnect();
  return { elements: count, sliced, start_ms: Math.round(start), step_median_ms: median(costs), step_p95_ms: p95(costs), long_tasks_ms: seen };
}

/**
 * The content script's cost per observed click as wired (`observeActions` with the page timeline's
 * `beforeAction`: the step, its checkpoint, its target's node and rect), and of shipping what the
 * step recorded (`flush`, with the JSON serialisation a port's `postMessage` does).
 */
async function wiredStep(elements: number, steps: number) {
  const count = buildPage(elements);
  const targets = stepTargets();
  let shipped = 0;
  let started = false;
  const timeline = startPageTimeline(document, BUILT_IN_MASKER, {
    bufferSeconds: 3600,
    send: (m) => {
      started ||= m.type === 'timeline/start';
      shipped += JSON.stringify(m).length;
    },
  });
  // Steps once the page is whole and shipped (a checkpoint asked before then waits for it).
  while (!started) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 200));
  const stepsSeen: unknown[] = [];
  const dispose = observeActions(window, (m) => stepsSeen.push(m), () => BUILT_IN_MASKER, { urlPollMs: 0, place: (label, el, point) => timeline.beforeAction(label, el, point) });
  const buttons = [...document.querySelectorAll('button')];
  timeline.flush();
  const before = shipped;
  const actions: number[] = [];
  const flushes: number[] = [];
  for (let s = 0; s < steps; s++) {
    mutateStep(s, targets);
    const button = buttons[(s * 7) % buttons.length]!;
    actions.push(time(() => button.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: 5, clientY: 5, detail: 1 }))));
    flushes.push(time(() => timeline.flush()));
  }
  dispose();
  timeline.stop();
  return {
    elements: count,
    steps: stepsSeen.length,
    action_median_ms: median(actions),
    action_p95_ms: p95(actions),
    ship_median_ms: median(flushes),
    ship_p95_ms: p95(flushes),
    chars_shipped_per_step: Math.round((shipped - before) / steps),
  };
}

/**
 * Shipping the base of a big page as the content script does (`startPageTimeline`: sliced start,
 * then `timeline/start`), each message JSON-serialised as an extension port's `postMessage` does, on
 * the page's main thread: in one message (`inParts` false) or in parts, one per task. Reports the
 * time to post each message, the cost of an action taken 30 ms into the start (its checkpoint waits,
 * its target is recorded ahead of the walk), and the long tasks (`longtask` observer) from the start
 * to the last part.
 */
async function shipping(elements: number, inParts: boolean) {
  const count = buildPage(elements);
  await new Promise((r) => setTimeout(r, 50));
  const seen: number[] = [];
  const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => seen.push(Math.round(e.duration))));
  observer.observe({ type: 'longtask', buffered: false });
  const posts: { type: string; ms: number; chars: number; parts?: number }[] = [];
  const t = performance.now();
  const timeline = startPageTimeline(document, BUILT_IN_MASKER, {
    bufferSeconds: 60,
    basePartBytes: inParts ? undefined : Number.POSITIVE_INFINITY,
    send: (m) => {
      let chars = 0;
      const ms = time(() => (chars = JSON.stringify(m).length));
      posts.push({ type: m.type, ms, chars, parts: m.type === 'timeline/start' ? m.parts : undefined });
    },
  });
  // An action on the page's last button while its first snapshot is still taken: the checkpoint waits,
  // the target (not reached yet) is recorded ahead of the walk.
  await new Promise((r) => setTimeout(r, 30));
  const buttons = document.querySelectorAll('button');
  const last = buttons[buttons.length - 1]!;
  let place: ReturnType<typeof timeline.beforeAction> = null;
  const earlyAction = time(() => (place = timeline.beforeAction("click button 'Add to cart'", last, { x: 5, y: 5 })));
  // The base is shipped once its start and every part went.
  const shipped = () => posts.length > 0 && posts.filter((p) => p.type !== 'timeline/entries').length === (posts[0]!.parts ?? 1);
  while (!shipped()) await new Promise((r) => setTimeout(r, 20));
  const total = performance.now() - t;
  await new Promise((r) => setTimeout(r, 50));
  observer.disconnect();
  timeline.stop();
  const base = posts.filter((p) => p.type !== 'timeline/entries');
  return {
    elements: count,
    in_parts: inParts,
    messages: base.length,
    base_chars: base.reduce((n, p) => n + p.chars, 0),
    largest_post_ms: round(Math.max(...base.map((p) => p.ms))),
    all_posts_ms: round(base.reduce((n, p) => n + p.ms, 0)),
    start_to_shipped_ms: Math.round(total),
    action_during_start_ms: round(earlyAction),
    action_during_start_has_node: (place as { node?: number } | null)?.node !== undefined,
    long_tasks_ms: seen,
  };
}

(globalThis as Record<string, unknown>).__timelineBench = { fullSnapshot, perStep, longTasks, wiredStep, shipping };
