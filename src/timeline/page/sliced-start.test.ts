// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { TimelineNode } from '../../../schemas/timeline';
import { BUILT_IN_MASKER } from '../../redact/mask-text';
import { takeSnapshot } from '../../snapshot/take-snapshot';
import { rebuildAt } from '../data/rebuild';
import { comparable, mutateRandomly, seededRandom } from '../../../test/fakes/random-pages';
import { beginTimelineInSlices, startTimelineInSlices } from './sliced-start';
import { MAX_WAITING_CHECKPOINTS, type TimelineRecorder } from './timeline-recorder';

let recorder: TimelineRecorder | null = null;
afterEach(() => recorder?.stop());

// `div role=form`, not `form`: see the note on happy-dom's form Proxy in test/fakes/random-pages.ts.
const cards = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<section><h3>Card ${i}</h3><div role="form"><label>Qty <input name="q${i}"></label><button>Add</button></div><ul><li>a</li><li>b</li></ul></section>`,
  ).join('');

const fresh = () => comparable(takeSnapshot(document, BUILT_IN_MASKER, { maxNodes: 1e6 }).root);

it.each(Array.from({ length: 12 }, (_, i) => i + 1))(
  'takes the first snapshot in slices while the page keeps changing, and ends with the page as it is (seed %i)',
  async (seed) => {
    document.documentElement.innerHTML = `<head></head><body><main id="app">${cards(40)}</main></body>`;
    const rnd = seededRandom(seed);
    const app = document.getElementById('app')!;
    let ticks = 0;
    let slices = 0;
    const rec = (recorder = await startTimelineInSlices(
      document,
      BUILT_IN_MASKER,
      { bufferSeconds: 60 },
      {
        sliceMs: 15,
        clock: () => ticks++,
        pause: async () => {
          slices++;
          for (let i = 0; i < 3; i++) mutateRandomly(document, app, rnd);
          await Promise.resolve();
        },
      },
    ));
    expect(slices).toBeGreaterThan(5);
    const { seq } = rec.checkpoint('started');
    expect(comparable(rebuildAt(rec.data(), seq)!.root)).toEqual(fresh());
    // It records on from there.
    for (let i = 0; i < 5; i++) mutateRandomly(document, app, rnd);
    const next = rec.checkpoint('next');
    expect(comparable(rebuildAt(rec.data(), next.seq)!.root)).toEqual(fresh());
  },
);

describe('a checkpoint asked for while the first snapshot is taken in slices', () => {
  it.each([1, 2, 3, 4, 5, 6])('waits for it and shows the page then; the target is recorded ahead of the walk, its id resolvable (seed %i)', async (seed) => {
    document.documentElement.innerHTML = `<head></head><body><main id="app">${cards(40)}</main></body>`;
    const rnd = seededRandom(seed);
    const app = document.getElementById('app')!;
    let ticks = 0;
    let slices = 0;
    let asked: { seq: number | null; node: number | null; el: Element } | null = null;
    const start = beginTimelineInSlices(
      document,
      BUILT_IN_MASKER,
      { bufferSeconds: 60, now: () => 1_000 + ticks },
      {
        sliceMs: 15,
        clock: () => ticks++,
        pause: async () => {
          slices++;
          // A few slices in, an action on an element the walk has not reached (the last card's button).
          if (slices === 3) {
            const buttons = document.querySelectorAll('button');
            const el = buttons[buttons.length - 1 - Math.floor(rnd() * 5)]!;
            el.id = 'hit';
            const seq = start.checkpoint(`click ${el.textContent}`);
            asked = { seq, node: start.target(el).node_id, el };
          }
          for (let i = 0; i < 3; i++) mutateRandomly(document, app, rnd);
          await Promise.resolve();
        },
      },
    );
    const rec = (recorder = await start.started);
    const whole = fresh();
    expect(asked).not.toBeNull();
    const { seq, node, el } = asked!;
    expect(seq).toBe(0);
    expect(node).not.toBeNull();
    expect(start.checkpoint('too late')).toBeNull();
    const data = rec.data();
    const entry = data.entries.find((e) => e.kind === 'checkpoint' && e.seq === seq);
    expect(entry).toMatchObject({ kind: 'checkpoint', label: expect.stringContaining('click'), asked_at: expect.any(Number) });
    const page = rebuildAt(data, seq!)!;
    // The page once the snapshot was whole: what the step saw plus what changed meanwhile.
    expect(comparable(page.root)).toEqual(whole);
    expect(page.asked_at).toBe((entry as { asked_at: number }).asked_at);
    expect(page.asked_at!).toBeLessThan(page.at);
    // Its node is the button, unless the random changes since took it out or moved it (a new node then).
    const hit = findNode(page.root, node!);
    if (hit || el.isConnected) expect(hit ?? findNode(page.root, rec.target(el).node_id!)).toMatchObject({ tag: 'button', attributes: { id: 'hit' } });
    // The recorder goes on with its own checkpoints after the one that waited.
    expect(rec.checkpoint('next').seq).toBe(1);
  });

  it('answers at most a bounded number of waiting checkpoints, and none once stopped', () => {
    document.documentElement.innerHTML = `<head></head><body><main>${cards(40)}</main></body>`;
    let ticks = 0;
    const start = beginTimelineInSlices(document, BUILT_IN_MASKER, { bufferSeconds: 60 }, { sliceMs: 1, clock: () => ticks++, pause: () => new Promise(() => undefined) });
    const seqs = Array.from({ length: MAX_WAITING_CHECKPOINTS + 5 }, (_, i) => start.checkpoint(`step ${i}`));
    expect(seqs.slice(0, MAX_WAITING_CHECKPOINTS)).toEqual(Array.from({ length: MAX_WAITING_CHECKPOINTS }, (_, i) => i));
    expect(seqs.slice(MAX_WAITING_CHECKPOINTS)).toEqual([null, null, null, null, null]);
    start.stop();
    expect(start.checkpoint('after stop')).toBeNull();
  });

  it('finishes the rest at once when asked (the page is left), the waiting checkpoints first', async () => {
    document.documentElement.innerHTML = `<head></head><body><main>${cards(40)}</main></body>`;
    let ticks = 0;
    const start = beginTimelineInSlices(document, BUILT_IN_MASKER, { bufferSeconds: 60 }, { sliceMs: 1, clock: () => ticks++, pause: () => new Promise(() => undefined) });
    const last = [...document.querySelectorAll('h3')].at(-1)!;
    const node = start.target(last).node_id!;
    expect(start.checkpoint('leave page')).toBe(0);
    start.finishNow();
    const rec = (recorder = await start.started);
    const page = rebuildAt(rec.data(), 0)!;
    expect(page.label).toBe('leave page');
    expect(comparable(page.root)).toEqual(fresh());
    expect(findNode(page.root, node)).toMatchObject({ tag: 'h3', text: 'Card 39' });
  });
});

function findNode(root: TimelineNode, id: number): TimelineNode | undefined {
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.id === id) return n;
    stack.push(...(n.children ?? []));
  }
  return undefined;
}
